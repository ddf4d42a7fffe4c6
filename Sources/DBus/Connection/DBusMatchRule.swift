/// A match rule: which signals a subscription wants.
///
/// The rule is installed on the bus with `AddMatch` and checked again on this side, because a
/// connection receives every signal sent straight to it whatever rules it has.
public struct DBusMatchRule: Sendable, Hashable {
    /// A unique sender name (`:1.42`) or `org.freedesktop.DBus`. A well-known name here is
    /// resolved by the bus only; to trust a signal's sender, subscribe with an owner to track
    /// instead (see ``DBusConnection/subscribe(to:senderMustOwn:)``).
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: DBusObjectPath?
    /// String matches on the first arguments: `arg0`, `arg1`, ...
    public var arguments: [Int: String]
    /// The exact body signature, e.g. `uu`. Checked on this side only (the bus's rules have no
    /// such key), from the header, so a signal of another shape is dropped before its body
    /// is decoded.
    public var signature: String?

    /// A rule for signals; `nil` fields match anything.
    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil,
        path: DBusObjectPath? = nil, arguments: [Int: String] = [:], signature: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.arguments = arguments
        self.signature = signature
    }

    /// The rule in the bus's text form.
    public var text: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(Self.escape(sender))'") }
        if let interface { parts.append("interface='\(Self.escape(interface))'") }
        if let member { parts.append("member='\(Self.escape(member))'") }
        if let path { parts.append("path='\(Self.escape(path.rawValue))'") }
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) {
            parts.append("arg\(index)='\(Self.escape(value))'")
        }
        return parts.joined(separator: ",")
    }

    /// Whether `message` is a signal this rule selects.
    public func matches(_ message: DBusMessage) -> Bool {
        matches(MessageHeader(message), body: message.body)
    }

    /// Whether the message of `header` is a signal this rule selects; with no `body` (not
    /// decoded yet), whether it may be, the arguments being unknown.
    func matches(_ header: MessageHeader, body: [DBusValue]?) -> Bool {
        guard header.kind == .signal else { return false }
        if let sender, sender.hasPrefix(":") || sender == "org.freedesktop.DBus", header.sender != sender { return false }
        if let interface, header.interface != interface { return false }
        if let member, header.member != member { return false }
        if let path, header.path != path { return false }
        if let signature, header.signature != signature { return false }
        guard let body else { return true }
        for (index, value) in arguments {
            guard index < body.count, body[index].stringValue == value else { return false }
        }
        return true
    }

    func validate() throws(DBusError) {
        if let sender, !DBusNames.isValidBusName(sender) { throw .invalidBusName(sender) }
        if let interface, !DBusNames.isValidInterfaceName(interface) { throw .invalidInterfaceName(interface) }
        if let member, !DBusNames.isValidMemberName(member) { throw .invalidMemberName(member) }
        if let signature { _ = try DBusType.parseList(signature) }
        for (index, value) in arguments {
            guard (0...63).contains(index) else { throw .malformed("match rules cover arg0 to arg63, not arg\(index)") }
            try DBusNames.validateString(value)
        }
    }

    /// Quotes per the spec: a `'` becomes `'\''`.
    private static func escape(_ value: String) -> String {
        var result = ""
        for character in value {
            if character == "'" { result += "'\\''" } else { result.append(character) }
        }
        return result
    }
}
