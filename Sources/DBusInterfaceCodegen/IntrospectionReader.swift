/// Reads a D-Bus introspection file: the XML subset the D-Bus specification's introspection
/// format uses (`node`, `interface`, `method`, `signal`, `property`, `arg`, `annotation`),
/// with an XML declaration, a DOCTYPE without an internal subset, and comments. Anything else
/// (other elements or attributes, text, CDATA, unknown entities, unbalanced or stray tags) is
/// refused with the line it is on, as are bad names and bad type signatures.
///
/// Bounded: a file is at most ``maximumBytes`` and nests at most ``maximumDepth`` elements; the
/// reader is a loop over the bytes with an explicit stack, so no input makes it recurse.
package struct IntrospectionReader {
    /// The largest file read (1 MiB; the files this package serves are a few kilobytes).
    package static let maximumBytes = 1 << 20
    /// The deepest nesting of elements.
    package static let maximumDepth = 32
    /// The longest D-Bus name (interface or member), as the specification bounds it.
    package static let maximumNameLength = 255

    private let file: String
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    /// Reads the interfaces of the file `file` (the name errors carry) whose contents are `bytes`.
    package static func interfaces(in bytes: [UInt8], file: String) throws(InterfaceFileError) -> [InterfaceDescription] {
        guard bytes.count <= maximumBytes else {
            throw InterfaceFileError(file: file, line: 1, message: "the file is \(bytes.count) bytes; an interface file is at most \(maximumBytes)")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw InterfaceFileError(file: file, line: 1, message: "the file is not UTF-8")
        }
        var reader = IntrospectionReader(file: file, bytes: bytes)
        return try reader.document()
    }

    private init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
    }

    // MARK: - Elements

    /// An element being read: its name, its attributes and where it started.
    private struct Open {
        var name: String
        var attributes: [String: String]
        var line: Int
        /// The byte its start tag's `<` is at.
        var start: Int
    }

    /// Which elements each element holds.
    private static let children: [String: Set<String>] = [
        "": ["node"],
        "node": ["node", "interface"],
        "interface": ["method", "signal", "property", "annotation"],
        "method": ["arg", "annotation"],
        "signal": ["arg", "annotation"],
        "property": ["annotation"],
        "arg": ["annotation"],
        "annotation": [],
    ]

    /// The attributes each element may have, and the ones it must.
    private static let attributes: [String: (allowed: Set<String>, required: [String])] = [
        "node": (["name"], []),
        "interface": (["name"], ["name"]),
        "method": (["name"], ["name"]),
        "signal": (["name"], ["name"]),
        "property": (["name", "type", "access"], ["name", "type", "access"]),
        "arg": (["name", "type", "direction"], ["type"]),
        "annotation": (["name", "value"], ["name", "value"]),
    ]

    /// What is being built inside the current interface.
    private struct Building {
        var interface: InterfaceDescription
        var method: MethodDescription?
        var signal: SignalDescription?
        var start: Int
    }

    private mutating func document() throws(InterfaceFileError) -> [InterfaceDescription] {
        var stack: [Open] = []
        var sawRoot = false
        var interfaces: [InterfaceDescription] = []
        var building: Building?
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "<") {
                guard Self.isSpace(byte) else {
                    throw fail("text outside a tag (\(describeHere())); an introspection file has only elements, comments and white space")
                }
                advance()
                continue
            }
            if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<?") {
                guard !sawRoot else { throw fail("a processing instruction after the root element") }
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!DOCTYPE") {
                guard !sawRoot else { throw fail("a DOCTYPE after the root element") }
                try doctype()
            } else if starts(with: "<![CDATA[") {
                throw fail("CDATA is not part of an introspection file")
            } else if starts(with: "</") {
                let tagLine = line
                advance(2)
                let name = try self.name(what: "an end tag's name")
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw fail("the end tag </\(name)> is not closed with >") }
                advance()
                guard let open = stack.popLast() else {
                    throw InterfaceFileError(file: file, line: tagLine, message: "</\(name)> closes an element that was never opened")
                }
                guard open.name == name else {
                    throw InterfaceFileError(
                        file: file, line: tagLine, message: "</\(name)> closes <\(open.name)>, opened on line \(open.line)")
                }
                try close(open, end: index, building: &building, into: &interfaces)
            } else {
                let tagStart = index
                let tagLine = line
                advance()
                let name = try self.name(what: "an element's name")
                let (attributes, empty) = try self.attributes(of: name)
                let parent = stack.last?.name ?? ""
                guard Self.children[name] != nil else {
                    throw InterfaceFileError(
                        file: file, line: tagLine,
                        message: "<\(name)> is not part of an introspection file (node, interface, method, signal, property, arg, annotation)")
                }
                guard Self.children[parent]?.contains(name) == true, !(parent.isEmpty && sawRoot) else {
                    let place = parent.isEmpty ? (sawRoot ? "after the root element" : "as the root element (expected <node>)") : "inside <\(parent)>"
                    throw InterfaceFileError(file: file, line: tagLine, message: "<\(name)> cannot stand \(place)")
                }
                if parent.isEmpty { sawRoot = true }
                guard stack.count < Self.maximumDepth else {
                    throw InterfaceFileError(file: file, line: tagLine, message: "the elements nest deeper than \(Self.maximumDepth)")
                }
                let open = Open(name: name, attributes: attributes, line: tagLine, start: tagStart)
                try start(open, building: &building)
                if empty {
                    try close(open, end: index, building: &building, into: &interfaces)
                } else {
                    stack.append(open)
                }
            }
        }
        if let open = stack.last {
            throw InterfaceFileError(file: file, line: open.line, message: "<\(open.name)> is never closed")
        }
        guard sawRoot else { throw fail("the file has no <node> element") }
        return interfaces
    }

    /// Takes an element's start tag into what is being built.
    private func start(_ open: Open, building: inout Building?) throws(InterfaceFileError) {
        let attributes = open.attributes
        switch open.name {
        case "interface":
            let name = attributes["name"] ?? ""
            try checkInterfaceName(name, line: open.line)
            let description = InterfaceDescription(
                name: name, line: open.line, introspectionXML: "", methods: [], signals: [], properties: [])
            building = Building(interface: description, start: open.start)
        case "method":
            let name = attributes["name"] ?? ""
            try checkMemberName(name, line: open.line)
            if building?.interface.methods.contains(where: { $0.name == name }) == true {
                throw InterfaceFileError(file: file, line: open.line, message: "the method \(name) is described twice")
            }
            building?.method = MethodDescription(name: name, line: open.line, inputs: [], outputs: [])
        case "signal":
            let name = attributes["name"] ?? ""
            try checkMemberName(name, line: open.line)
            if building?.interface.signals.contains(where: { $0.name == name }) == true {
                throw InterfaceFileError(file: file, line: open.line, message: "the signal \(name) is described twice")
            }
            building?.signal = SignalDescription(name: name, line: open.line, arguments: [])
        case "property":
            let name = attributes["name"] ?? ""
            try checkMemberName(name, line: open.line)
            let type = attributes["type"] ?? ""
            try checkType(type, line: open.line)
            let access = attributes["access"] ?? ""
            guard ["read", "write", "readwrite"].contains(access) else {
                throw InterfaceFileError(file: file, line: open.line, message: "the property \(name) has access \"\(access)\" (read, write or readwrite)")
            }
            building?.interface.properties.append(PropertyDescription(name: name, type: type, access: access))
        case "arg":
            let type = attributes["type"] ?? ""
            try checkType(type, line: open.line)
            let argument = ArgumentDescription(name: attributes["name"], type: type)
            if building?.method != nil {
                switch attributes["direction"] ?? "in" {
                case "in": building?.method?.inputs.append(argument)
                case "out": building?.method?.outputs.append(argument)
                case let other:
                    throw InterfaceFileError(file: file, line: open.line, message: "an argument's direction is \"\(other)\" (in or out)")
                }
                let method = building?.method
                for signature in [method?.inputSignature ?? "", method?.outputSignature ?? ""] {
                    try checkLength(signature, line: open.line)
                }
            } else {
                guard (attributes["direction"] ?? "out") == "out" else {
                    throw InterfaceFileError(file: file, line: open.line, message: "a signal's argument has no direction but out")
                }
                building?.signal?.arguments.append(argument)
                try checkLength(building?.signal?.signature ?? "", line: open.line)
            }
        default:
            break
        }
    }

    /// Takes an element's end into what is being built.
    private func close(
        _ open: Open, end: Int, building: inout Building?, into interfaces: inout [InterfaceDescription]
    ) throws(InterfaceFileError) {
        switch open.name {
        case "interface":
            guard var finished = building else { return }
            if interfaces.contains(where: { $0.name == finished.interface.name }) {
                throw InterfaceFileError(file: file, line: open.line, message: "the interface \(finished.interface.name) is described twice")
            }
            // From the start of the start tag's line when only white space comes before it.
            var start = finished.start
            while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t") { start -= 1 }
            if start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start = finished.start }
            finished.interface.introspectionXML = String(decoding: bytes[start..<end], as: UTF8.self)
            interfaces.append(finished.interface)
            building = nil
        case "method":
            if let method = building?.method { building?.interface.methods.append(method) }
            building?.method = nil
        case "signal":
            if let signal = building?.signal { building?.interface.signals.append(signal) }
            building?.signal = nil
        default:
            break
        }
    }

    // MARK: - Names and types

    private func checkInterfaceName(_ name: String, line: Int) throws(InterfaceFileError) {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= Self.maximumNameLength, elements.count >= 2,
              elements.allSatisfy({ Self.isName($0, digitsFirst: false) }) else {
            throw InterfaceFileError(
                file: file, line: line,
                message: "\"\(name)\" is no D-Bus interface name (two or more elements of [A-Za-z0-9_], not starting with a digit, joined by dots, at most 255 bytes)")
        }
    }

    private func checkMemberName(_ name: String, line: Int) throws(InterfaceFileError) {
        guard name.utf8.count <= Self.maximumNameLength, Self.isName(Substring(name), digitsFirst: false) else {
            throw InterfaceFileError(
                file: file, line: line,
                message: "\"\(name)\" is no D-Bus member name ([A-Za-z0-9_], not starting with a digit, at most 255 bytes)")
        }
    }

    private func checkType(_ type: String, line: Int) throws(InterfaceFileError) {
        if let problem = TypeSignature.problemWithSingleType(type) {
            throw InterfaceFileError(file: file, line: line, message: problem)
        }
    }

    private func checkLength(_ signature: String, line: Int) throws(InterfaceFileError) {
        guard signature.utf8.count <= TypeSignature.maximumLength else {
            throw InterfaceFileError(
                file: file, line: line,
                message: "the arguments' signature is \(signature.utf8.count) bytes; a signature is at most \(TypeSignature.maximumLength)")
        }
    }

    private static func isName(_ name: Substring, digitsFirst: Bool) -> Bool {
        guard let first = name.utf8.first, digitsFirst || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { isNameByte($0) }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    // MARK: - Tokens

    private mutating func attributes(of element: String) throws(InterfaceFileError) -> ([String: String], empty: Bool) {
        var attributes: [String: String] = [:]
        let tagLine = line
        let rules = Self.attributes[element]
        while true {
            let spaced = skipSpace()
            guard index < bytes.count else {
                throw InterfaceFileError(file: file, line: tagLine, message: "the start tag <\(element)> is not closed")
            }
            if bytes[index] == UInt8(ascii: ">") {
                advance()
                break
            }
            if starts(with: "/>") {
                advance(2)
                return (try checked(attributes, of: element, rules: rules, line: tagLine), true)
            }
            guard spaced else { throw fail("<\(element)> needs white space before an attribute (\(describeHere()))") }
            let name = try self.name(what: "an attribute's name")
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw fail("the attribute \(name) has no = value") }
            advance()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw fail("the value of the attribute \(name) is not quoted")
            }
            let value = try quoted()
            guard attributes.updateValue(value, forKey: name) == nil else {
                throw fail("<\(element)> has the attribute \(name) twice")
            }
        }
        return (try checked(attributes, of: element, rules: rules, line: tagLine), false)
    }

    private func checked(
        _ attributes: [String: String], of element: String, rules: (allowed: Set<String>, required: [String])?, line: Int
    ) throws(InterfaceFileError) -> [String: String] {
        guard let rules else { return attributes }
        if let unknown = attributes.keys.sorted().first(where: { !rules.allowed.contains($0) }) {
            throw InterfaceFileError(file: file, line: line, message: "<\(element)> has no attribute \(unknown) in an introspection file")
        }
        if let missing = rules.required.first(where: { attributes[$0] == nil }) {
            throw InterfaceFileError(file: file, line: line, message: "<\(element)> has no \(missing) attribute")
        }
        return attributes
    }

    /// A quoted attribute value, its five predefined entities and character references replaced.
    private mutating func quoted() throws(InterfaceFileError) -> String {
        let quote = bytes[index]
        let startLine = line
        advance()
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw InterfaceFileError(file: file, line: startLine, message: "an attribute value is never closed")
            }
            let byte = bytes[index]
            if byte == quote {
                advance()
                return String(decoding: value, as: UTF8.self)
            }
            if byte == UInt8(ascii: "<") { throw fail("an attribute value holds <") }
            if byte == UInt8(ascii: "&") {
                value += try entity()
            } else {
                value.append(byte)
                advance()
            }
        }
    }

    private mutating func entity() throws(InterfaceFileError) -> [UInt8] {
        var end = index + 1
        while end < bytes.count, end - index <= 10, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw fail("an & that starts no entity (write &amp;)") }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        let replacement: String
        switch name {
        case "amp": replacement = "&"
        case "lt": replacement = "<"
        case "gt": replacement = ">"
        case "quot": replacement = "\""
        case "apos": replacement = "'"
        default:
            let number: UInt32?
            if name.hasPrefix("#x") {
                number = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                number = UInt32(name.dropFirst(), radix: 10)
            } else {
                number = nil
            }
            guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
                throw fail("the entity &\(name); is not one of XML's own (&amp; &lt; &gt; &quot; &apos; or a character reference)")
            }
            replacement = String(Character(scalar))
        }
        advance(end + 1 - index)
        return Array(replacement.utf8)
    }

    /// An XML name: a letter, `_` or `:`, then those, digits, `-` and `.`.
    private mutating func name(what: String) throws(InterfaceFileError) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let allowed = Self.isNameByte(byte) || byte == UInt8(ascii: ":")
                || (index > start && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
            guard allowed, index == start ? !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : true else { break }
            advance()
        }
        guard index > start else { throw fail("\(what) is missing (\(describeHere()))") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func doctype() throws(InterfaceFileError) {
        let startLine = line
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw fail("a DOCTYPE with an internal subset is not part of an introspection file")
            } else if byte == UInt8(ascii: ">") {
                advance()
                return
            }
            advance()
        }
        throw InterfaceFileError(file: file, line: startLine, message: "the DOCTYPE is never closed")
    }

    private mutating func skip(past end: String, what: String) throws(InterfaceFileError) {
        let startLine = line
        let terminator = Array(end.utf8)
        while index < bytes.count {
            if starts(with: terminator) {
                advance(terminator.count)
                return
            }
            advance()
        }
        throw InterfaceFileError(file: file, line: startLine, message: "\(what) is never closed")
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { advance() }
        return index > start
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private func starts(with text: String) -> Bool { starts(with: Array(text.utf8)) }

    private func starts(with prefix: [UInt8]) -> Bool {
        guard bytes.count - index >= prefix.count else { return false }
        for offset in 0..<prefix.count where bytes[index + offset] != prefix[offset] { return false }
        return true
    }

    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
    }

    /// The next few characters, for an error message.
    private func describeHere() -> String {
        let end = min(bytes.count, index + 20)
        let text = String(decoding: bytes[index..<end], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        return "at \"\(text)\""
    }

    private func fail(_ message: String) -> InterfaceFileError {
        InterfaceFileError(file: file, line: line, message: message)
    }
}
