/// The configuration of this package's private session buses: `notify`'s terminal fallback,
/// `notify server --private`, the examples' terminal presenter, the test kit's `TestBus`.
///
/// It is compiled in, so an installed program needs no file from a source checkout. There are
/// deliberately no service directories (no `<standard_session_servicedirs/>`): Debian's dunst
/// ships an activatable `org.freedesktop.Notifications` service that the first `Notify` would
/// otherwise start. Nothing from `/etc` is included, so the bus behaves the same on every
/// machine. Tests that exercise activation add a `<servicedir>` of their own, and size tests
/// lower `<limit>`s: an element after another of the same name wins.
package enum PrivateBusConfiguration {
    /// The limits: generous, so that pipelined benchmark runs (tens of thousands of calls in
    /// flight on one connection) never hit the bus's own caps. The memory limits stay below
    /// 2^31 because they are signed 32-bit values; `max_message_size` is the protocol's maximum
    /// of 128 MiB. Bounded waits: an activated service that never takes its name fails after
    /// 10 s instead of the 120 s of the desktop session bus.
    package static let limits: KeyValuePairs<String, Int> = [
        "max_incoming_bytes": 1_000_000_000,
        "max_incoming_unix_fds": 250_000_000,
        "max_outgoing_bytes": 1_000_000_000,
        "max_outgoing_unix_fds": 250_000_000,
        "max_message_size": 134_217_728,
        "max_completed_connections": 100_000,
        "max_incomplete_connections": 10_000,
        "max_connections_per_user": 100_000,
        "max_pending_service_starts": 10_000,
        "max_names_per_connection": 50_000,
        "max_match_rules_per_connection": 50_000,
        "max_replies_per_connection": 50_000,
        "service_start_timeout": 10_000,
        "auth_timeout": 30_000,
        "pending_fd_timeout": 30_000,
    ]

    /// The text of a configuration file for `dbus-daemon --config-file`.
    ///
    /// - Parameters:
    ///   - listen: The addresses to listen at (`unix:path=…`, `unix:tmpdir=…`).
    ///   - serviceDirectory: A folder of `.service` files the bus may activate, or `nil` for none.
    ///   - overriding: Limits that replace those of ``limits`` (for size tests).
    package static func text(listen: [String], serviceDirectory: String? = nil, overriding: [String: Int] = [:]) -> String {
        var lines = [
            #"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN""#,
            #" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">"#,
            "<busconfig>",
            "  <type>session</type>",
        ]
        lines += listen.map { "  <listen>\(escaped($0))</listen>" }
        lines += [
            "  <auth>EXTERNAL</auth>",
            "  <policy context=\"default\">",
            "    <allow send_destination=\"*\" eavesdrop=\"true\"/>",
            "    <allow eavesdrop=\"true\"/>",
            "    <allow own=\"*\"/>",
            "  </policy>",
        ]
        if let serviceDirectory {
            lines.append("  <servicedir>\(escaped(serviceDirectory))</servicedir>")
        }
        for (name, value) in limits {
            lines.append("  <limit name=\"\(name)\">\(overriding[name] ?? value)</limit>")
        }
        for (name, value) in overriding.sorted(by: { $0.key < $1.key }) where !limits.contains(where: { $0.key == name }) {
            lines.append("  <limit name=\"\(escaped(name))\">\(value)</limit>")
        }
        lines.append("</busconfig>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` fit for an XML element or attribute value.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
