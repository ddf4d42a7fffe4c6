/// One `<interface>` element of an introspection file, as the generator reads it.
package struct InterfaceDescription: Equatable, Sendable {
    /// The interface's D-Bus name (`org.freedesktop.Notifications`).
    package var name: String
    /// The line of its start tag.
    package var line: Int
    /// The element's text exactly as the file has it, from the start of the line of its start
    /// tag (its indentation included) to the end of its end tag: what `Introspect` serves.
    package var introspectionXML: String
    /// Its methods, in the file's order.
    package var methods: [MethodDescription]
    /// Its signals, in the file's order.
    package var signals: [SignalDescription]
    /// Its properties, in the file's order.
    package var properties: [PropertyDescription]

    /// The name of the Swift enum generated for it: the name's last element and `Spec`
    /// (`org.desktopnotifications.Agent1` gives `Agent1Spec`).
    package var swiftName: String {
        String(name.split(separator: ".").last ?? Substring(name)) + "Spec"
    }
}

/// One argument of a method or a signal.
package struct ArgumentDescription: Equatable, Sendable {
    /// Its name, when the file gives one.
    package var name: String?
    /// Its type: one complete D-Bus type.
    package var type: String
}

/// One `<method>` element.
package struct MethodDescription: Equatable, Sendable {
    /// The member name.
    package var name: String
    /// The line of its start tag.
    package var line: Int
    /// Its `in` arguments, in order.
    package var inputs: [ArgumentDescription]
    /// Its `out` arguments, in order.
    package var outputs: [ArgumentDescription]

    /// The signature of a call's body.
    package var inputSignature: String { inputs.map(\.type).joined() }
    /// The signature of the reply's body.
    package var outputSignature: String { outputs.map(\.type).joined() }
}

/// One `<signal>` element.
package struct SignalDescription: Equatable, Sendable {
    /// The member name.
    package var name: String
    /// The line of its start tag.
    package var line: Int
    /// Its arguments, in order.
    package var arguments: [ArgumentDescription]

    /// The signature of the signal's body.
    package var signature: String { arguments.map(\.type).joined() }
}

/// One `<property>` element.
package struct PropertyDescription: Equatable, Sendable {
    /// The property's name.
    package var name: String
    /// Its type: one complete D-Bus type.
    package var type: String
    /// `read`, `write` or `readwrite`.
    package var access: String

    /// A property of `type` named `name`, with `access`.
    package init(name: String, type: String, access: String) {
        self.name = name
        self.type = type
        self.access = access
    }
}
