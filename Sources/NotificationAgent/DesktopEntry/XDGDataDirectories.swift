/// The folders where desktop entries live, by the XDG Base Directory Specification:
/// `$XDG_DATA_HOME` (default `~/.local/share`), then each of `$XDG_DATA_DIRS` (default
/// `/usr/local/share:/usr/share`), each with `applications/` under it.
///
/// Built from an environment passed in, not the process's, so that the agent can use a
/// caller's and tests can use their own. Relative paths in the variables are ignored, as the
/// spec says.
package struct XDGDataDirectories: Sendable, Hashable {
    /// The data folders in search order, the user's first.
    package let dataDirectories: [String]

    /// Reads `XDG_DATA_HOME`, `XDG_DATA_DIRS` and `HOME` from `environment`.
    package init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? home.map { "\($0)/.local/share" }
        var dataDirectories = (environment["XDG_DATA_DIRS"] ?? "")
            .split(separator: ":")
            .map(String.init)
            .filter { $0.hasPrefix("/") }
        if dataDirectories.isEmpty { dataDirectories = ["/usr/local/share", "/usr/share"] }
        self.dataDirectories = (dataHome.map { [$0] } ?? []) + dataDirectories
    }

    /// The `applications` folders in search order.
    package var applicationDirectories: [String] {
        dataDirectories.map { "\($0.hasSuffix("/") ? String($0.dropLast()) : $0)/applications" }
    }
}
