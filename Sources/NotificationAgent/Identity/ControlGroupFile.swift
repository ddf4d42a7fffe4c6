/// Reads the systemd unit of a process from its `/proc/PID/cgroup`.
package enum ControlGroupFile {
    /// The unit the process runs in: on the unified hierarchy's line (`0::/...`), else the
    /// `name=systemd` line of the legacy one, the first path element below the user manager
    /// (`user@UID.service`) that is not a slice, as `sd_pid_get_user_unit` finds it. `nil` when
    /// the process is in no unit.
    package static func unit(fromCgroupFile text: String) -> String? {
        let lines = text.split(separator: "\n")
        let path = lines.lazy.compactMap { $0.hasPrefix("0::") ? $0.dropFirst(3) : nil }.first
            ?? lines.lazy.compactMap { line -> Substring? in
                let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                return fields.count == 3 && fields[1] == "name=systemd" ? fields[2] : nil
            }.first
        guard let path else { return nil }
        var elements = path.split(separator: "/")
        if let manager = elements.firstIndex(where: { $0.hasPrefix("user@") && $0.hasSuffix(".service") }) {
            elements = Array(elements[elements.index(after: manager)...])
        }
        return elements.first { !$0.hasSuffix(".slice") }.map(String.init)
    }
}
