/// Writes the typed half of an interface's declarations, in the spirit of gdbus-codegen and
/// zbus's proxies: per method with arguments a `<Member>Arguments` struct, per method with
/// reply values a `<Member>Reply` struct, per signal with values a `<Member>Signal` struct, and
/// a `Call` enum a server switches on. Each struct has a field per argument, named from the
/// file's argument name (`app_id` as `appID`), an initializer from the fields, one that reads a
/// body (``DBusValue`` list, its signature checked value by value) and `values`, the body it
/// makes.
///
/// A type `DBus.DBusArgument` maps (numbers, strings, paths, signatures, descriptors, `v`, and
/// arrays and dictionaries of them) is a Swift field of that type; any other (a struct, an array
/// of structs) stays a `DBusValue`, checked against its signature as it is read.
enum TypedDeclarations {
    /// The extension of `swiftName` with the typed declarations of `interface`, or `nil` when
    /// the interface has neither methods nor signals; `methodCases` are the case names the
    /// spec's `Method` enum gives the methods.
    static func declaration(of interface: InterfaceDescription, swiftName: String, methodCases: [String]) -> String? {
        guard !interface.methods.isEmpty || !interface.signals.isEmpty else { return nil }
        var lines = ["", "#if canImport(DBus)", "extension \(swiftName) {"]
        var first = true
        func add(_ block: [String]) {
            if !first { lines.append("") }
            first = false
            lines += block
        }
        for method in interface.methods {
            if !method.inputs.isEmpty {
                add(structure(
                    named: method.name + "Arguments", arguments: method.inputs,
                    summary: "The arguments of a call of `\(method.name)`.", bodyKind: "call"))
            }
            if !method.outputs.isEmpty {
                add(structure(
                    named: method.name + "Reply", arguments: method.outputs,
                    summary: "The values of a reply to `\(method.name)`.", bodyKind: "reply"))
            }
        }
        for signal in interface.signals where !signal.arguments.isEmpty {
            var block = structure(
                named: signal.name + "Signal", arguments: signal.arguments,
                summary: "The values of the signal `\(signal.name)`.", bodyKind: "signal")
            block.removeLast()
            block += [
                "",
                "        /// The signal as a message from the object at `path`, to `destination` or to every",
                "        /// connection that matches it (`nil`).",
                "        ///",
                "        /// - Throws: `DBusError` when `destination` is no bus name.",
                "        package func message(path: DBusObjectPath, destination: String? = nil) throws(DBusError) -> DBusMessage {",
                "            try DBusMessage.signal(",
                "                path: path, interface: \(swiftName).name, member: \(literal(signal.name)), body: values, destination: destination)",
                "        }",
                "    }",
            ]
            add(block)
        }
        if !interface.methods.isEmpty {
            add(call(interface.methods, cases: methodCases, swiftName: swiftName))
        }
        lines += ["}", "#endif"]
        return lines.map { $0.isEmpty ? "" : $0 }.joined(separator: "\n") + "\n"
    }

    /// The `Call` enum: a case per method, with its arguments.
    private static func call(_ methods: [MethodDescription], cases: [String], swiftName: String) -> [String] {
        var lines = [
            "    /// A call of one of the interface's methods, its arguments read: what a server switches on.",
            "    package enum Call: Sendable {",
        ]
        for (method, name) in zip(methods, cases) {
            lines.append("        /// `\(method.name)(\(SwiftGenerator.arguments(method.inputs)))`.")
            lines.append(method.inputs.isEmpty ? "        case \(name)" : "        case \(name)(\(method.name)Arguments)")
        }
        lines += [
            "",
            "        /// Reads a call of `method` whose body is `values`.",
            "        ///",
            "        /// - Throws: `DBusError` when the body does not have the method's input signature.",
            "        package init(_ method: Method, _ values: [DBusValue]) throws(DBusError) {",
            "            switch method {",
        ]
        for (method, name) in zip(methods, cases) {
            if method.inputs.isEmpty {
                lines += [
                    "            case .\(name):",
                    "                _ = try DBusValue.body(values, count: 0, signature: \"\")",
                    "                self = .\(name)",
                ]
            } else {
                lines.append("            case .\(name): self = .\(name)(try \(method.name)Arguments(values))")
            }
        }
        lines += ["            }", "        }", "", "        /// The method called.", "        package var method: Method {", "            switch self {"]
        for name in cases {
            lines.append("            case .\(name): .\(name)")
        }
        lines += ["            }", "        }", "", "        /// The call's body.", "        package var values: [DBusValue] {", "            switch self {"]
        for (method, name) in zip(methods, cases) {
            lines.append(method.inputs.isEmpty ? "            case .\(name): []" : "            case .\(name)(let arguments): arguments.values")
        }
        lines += [
            "            }",
            "        }",
            "",
            "        /// Reads the call `message` makes.",
            "        ///",
            "        /// - Throws: `DBusCallRefusal`: `unknownMethod` for a member the interface does not have,",
            "        ///   `invalidArguments` for a body that does not have the method's input signature.",
            "        package init(_ message: DBusMessage) throws(DBusCallRefusal) {",
            "            let member = message.member ?? \"\"",
            "            guard let method = Method(rawValue: member) else {",
            "                throw .unknownMethod(interface: \(swiftName).name, member: member)",
            "            }",
            "            do {",
            "                try self.init(method, message.body)",
            "            } catch {",
            "                throw .invalidArguments(member: member, expected: method.inputSignature, found: message.bodySignature)",
            "            }",
            "        }",
            "",
            "        /// The call as a message to the object at `path` of `destination`.",
            "        ///",
            "        /// - Throws: `DBusError` when `destination` is no bus name.",
            "        package func message(to destination: String?, path: DBusObjectPath, flags: DBusMessage.Flags = []) throws(DBusError) -> DBusMessage {",
            "            try DBusMessage.methodCall(",
            "                destination: destination, path: path, interface: \(swiftName).name, member: method.rawValue, body: values, flags: flags)",
            "        }",
            "    }",
        ]
        return lines
    }

    /// A struct with a field per argument.
    private static func structure(named name: String, arguments: [ArgumentDescription], summary: String, bodyKind: String) -> [String] {
        let fields = fieldNames(arguments)
        let signature = arguments.map(\.type).joined()
        var lines = ["    /// \(summary)", "    package struct \(name): Sendable {"]
        for (argument, field) in zip(arguments, fields) {
            let label = argument.name.map { "`\(SwiftGenerator.commentSafe($0))`" } ?? "The unnamed argument"
            lines.append("        /// \(label) (`\(argument.type)`).")
            lines.append("        package var \(field.declared): \(swiftType(argument.type) ?? "DBusValue")")
        }
        let parameters = zip(arguments, fields).map { "\($1.declared): \(swiftType($0.type) ?? "DBusValue")" }.joined(separator: ", ")
        lines += ["", "        /// The \(bodyKind)'s values.", "        package init(\(parameters)) {"]
        for field in fields { lines.append("            self.\(field.declared) = \(field.declared)") }
        lines += [
            "        }",
            "",
            "        /// Reads a \(bodyKind)'s body.",
            "        ///",
            "        /// - Throws: `DBusError` when the body does not have the signature `\(signature)`.",
            "        package init(_ values: [DBusValue]) throws(DBusError) {",
            "            let values = try DBusValue.body(values, count: \(arguments.count), signature: \(literal(signature)))",
        ]
        for (index, (argument, field)) in zip(arguments, fields).enumerated() {
            let read = swiftType(argument.type).map { "try \($0).reading(values[\(index)])" }
                ?? "try DBusValue.checked(values[\(index)], signature: \(literal(argument.type)))"
            lines.append("            self.\(field.declared) = \(read)")
        }
        let values = zip(arguments, fields).map { argument, field in
            swiftType(argument.type) == nil ? field.declared : "\(field.declared).dbusValue"
        }
        lines += [
            "        }",
            "",
            "        /// The \(bodyKind)'s body.",
            "        package var values: [DBusValue] { [\(values.joined(separator: ", "))] }",
            "    }",
        ]
        return lines
    }

    /// The Swift type `DBusArgument` maps `signature` (one complete type) to, or `nil` when it
    /// maps none.
    static func swiftType(_ signature: String) -> String? {
        var reader = Array(signature.utf8)[...]
        guard let type = swiftType(reading: &reader), reader.isEmpty else { return nil }
        return type
    }

    private static func swiftType(reading signature: inout ArraySlice<UInt8>) -> String? {
        guard let code = signature.popFirst() else { return nil }
        if let basic = basicTypes[code] { return basic }
        switch code {
        case UInt8(ascii: "v"): return "DBusValue"
        case UInt8(ascii: "a"):
            if signature.first == UInt8(ascii: "{") {
                signature.removeFirst()
                guard let keyCode = signature.popFirst(), let key = basicTypes[keyCode],
                      let value = swiftType(reading: &signature), signature.popFirst() == UInt8(ascii: "}") else { return nil }
                return "[\(key): \(value)]"
            }
            return swiftType(reading: &signature).map { "[\($0)]" }
        default: return nil
        }
    }

    private static let basicTypes: [UInt8: String] = [
        UInt8(ascii: "y"): "UInt8", UInt8(ascii: "b"): "Bool", UInt8(ascii: "n"): "Int16", UInt8(ascii: "q"): "UInt16",
        UInt8(ascii: "i"): "Int32", UInt8(ascii: "u"): "UInt32", UInt8(ascii: "x"): "Int64", UInt8(ascii: "t"): "UInt64",
        UInt8(ascii: "d"): "Double", UInt8(ascii: "s"): "String", UInt8(ascii: "o"): "DBusObjectPath",
        UInt8(ascii: "g"): "DBusSignature", UInt8(ascii: "h"): "DBusFileDescriptor",
    ]

    /// A field's name as declared and used (in backticks when it is a keyword).
    struct Field {
        var declared: String
    }

    /// The fields' names: each argument's name in lower camel case (`app_id` as `appID`,
    /// `request_json` as `requestJSON`), `value<N>` for an argument without a usable name, made
    /// distinct with a number where two would be equal; `values` (the struct's body) and the
    /// names Swift reserves in a type get `Value` after them.
    static func fieldNames(_ arguments: [ArgumentDescription]) -> [Field] {
        var taken: Set<String> = []
        return arguments.enumerated().map { index, argument in
            var name = argument.name.flatMap(camelCase) ?? "value\(index)"
            if reservedFields.contains(name) { name += "Value" }
            if taken.contains(name) {
                var number = 2
                while taken.contains(name + String(number)) { number += 1 }
                name += String(number)
            }
            taken.insert(name)
            return Field(declared: SwiftGenerator.keywordSafe(name))
        }
    }

    private static let reservedFields: Set<String> = ["values", "self", "Type", "init", "Self", "Protocol"]

    /// `app_id` as `appID`, `expire_timeout` as `expireTimeout`, `SenderPID` as `senderPID`;
    /// `nil` when nothing of the name can make a Swift identifier.
    static func camelCase(_ name: String) -> String? {
        let parts = name.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }).map(String.init)
        guard let head = parts.first else { return nil }
        var result = SwiftGenerator.caseName(head)
        for part in parts.dropFirst() {
            result += acronyms[part.lowercased()] ?? (part.prefix(1).uppercased() + part.dropFirst())
        }
        guard let first = result.unicodeScalars.first, !("0"..."9").contains(first) else { return nil }
        return result
    }

    private static let acronyms = ["id": "ID", "ids": "IDs", "json": "JSON", "url": "URL", "uri": "URI", "pid": "PID", "uid": "UID", "fd": "FD"]

    private static func literal(_ text: String) -> String {
        // Signatures hold only ASCII type codes: nothing to escape.
        "\"" + text + "\""
    }
}
