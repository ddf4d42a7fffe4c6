extension ConnectionCore {
    /// Whether a call with `header` reaches something here: an exported object at its path, or
    /// `Introspect` on a path at or above one.
    func servesCall(_ header: MessageHeader) -> Bool {
        assertOnQueue()
        guard let path = header.path else { return false }
        if exports[path.rawValue] != nil { return true }
        guard header.interface == "org.freedesktop.DBus.Introspectable", header.member == "Introspect" else { return false }
        let prefix = Self.childPrefix(of: path)
        return exports.keys.contains { $0.hasPrefix(prefix) }
    }

    /// Serves a call to an exported object; `false` lets libdbus answer `UnknownMethod`.
    func handleMethodCall(_ message: DBusMessage) -> Bool {
        assertOnQueue()
        guard let path = message.path else { return false }
        if message.interface == "org.freedesktop.DBus.Introspectable", message.member == "Introspect" {
            guard let xml = introspection(of: path) else { return false }
            DBusMethodInvocation(message: message, core: self).reply([.string(xml)])
            return true
        }
        guard let object = exports[path.rawValue] else { return false }
        let invocation = DBusMethodInvocation(message: message, core: self)
        let interface: DBusExportedInterface?
        if let name = message.interface {
            interface = object.interfaces.first { $0.name == name }
        } else {
            interface = object.interfaces.first
        }
        guard let interface else {
            invocation.fail(
                name: "org.freedesktop.DBus.Error.UnknownInterface",
                message: "\(path) has no interface \(message.interface ?? "")")
            return true
        }
        interface.handler(invocation)
        return true
    }

    /// What the paths of objects below `path` start with.
    private static func childPrefix(of path: DBusObjectPath) -> String {
        path.rawValue == "/" ? "/" : path.rawValue + "/"
    }

    /// The introspection document of `path`: its interfaces and its children, or `nil` when
    /// nothing is exported at or below it.
    private func introspection(of path: DBusObjectPath) -> String? {
        let prefix = Self.childPrefix(of: path)
        var children = Set<String>()
        for exported in exports.keys where exported.hasPrefix(prefix) {
            if let child = exported.dropFirst(prefix.count).split(separator: "/").first { children.insert(String(child)) }
        }
        let object = exports[path.rawValue]
        guard object != nil || !children.isEmpty else { return nil }
        var xml = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
              <interface name="org.freedesktop.DBus.Introspectable">
                <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
              </interface>
              <interface name="org.freedesktop.DBus.Peer">
                <method name="Ping"/>
                <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
              </interface>

            """
        for interface in object?.interfaces ?? [] { xml += interface.introspectionXML + "\n" }
        for child in children.sorted() { xml += "  <node name=\"\(child)\"/>\n" }
        xml += "</node>\n"
        return xml
    }
}
