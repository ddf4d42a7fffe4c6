/// The target of an `app.*` action the portal engine adds: which notification and which of
/// its actions a click means, as the one string parameter the app side's
/// `ActivateAction("notification-response", [<s id>], platform_data)` takes
/// (``ApplicationInterface/notificationResponseAction``).
///
/// The text is `portal:<action>:<nonce>:<identifier>`: `<action>` is the portal action name
/// (``PortalInterface/defaultAction`` or ``PortalInterface/actionName(at:)``, neither holds a
/// colon), `<nonce>` the notification's nonce (``makeNonce()``: 128 random bits as 32
/// lowercase hexadecimal digits, kept with the notification in the engine's saved list) and
/// `<identifier>` the request's identifier, as it is (it may hold colons). Any bus peer may
/// call `ActivateAction`, and identifiers are often predictable: the nonce is what a forger
/// cannot guess, and the engine takes a target only when it is the nonce of the notification
/// it names. The target comes back from a bus peer, so ``init(parsing:)`` reads it
/// defensively: bounded, typed, and only the forms the engine makes.
package struct PortalResponseID: Sendable, Hashable {
    /// The portal action name: `default` or `action.<n>`.
    package var action: String
    /// The nonce of the notification (``makeNonce()``).
    package var nonce: String
    /// The request identifier of the notification.
    package var identifier: String

    static let prefix = "portal:"
    /// The longest text read, in bytes (the app side bounds its strings the same way).
    package static let maximumBytes = 4096
    /// The length of a nonce: 128 bits in hexadecimal.
    package static let nonceLength = 32

    package init(action: String, nonce: String, identifier: String) {
        self.action = action
        self.nonce = nonce
        self.identifier = identifier
    }

    /// A new nonce: 128 bits from the system's random source (`SystemRandomNumberGenerator`,
    /// the kernel's `getrandom`), as 32 lowercase hexadecimal digits.
    package static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (half: UInt64) in
            let digits = String(half, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// Whether `text` has the form of a nonce: ``nonceLength`` lowercase hexadecimal digits.
    package static func isNonce(_ text: Substring) -> Bool {
        text.utf8.count == nonceLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `nonce` is `expected`, compared in time that does not depend on where they
    /// differ.
    package static func nonce(_ nonce: String, matches expected: String) -> Bool {
        let (given, wanted) = (Array(nonce.utf8), Array(expected.utf8))
        guard given.count == wanted.count else { return false }
        return zip(given, wanted).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Reads a target; `nil` for anything the engine did not make: another prefix, no
    /// colon after the action or the nonce, an action of another form, a nonce that is not
    /// 32 lowercase hexadecimal digits (targets of versions before the nonce among them), an
    /// empty identifier, or text longer than ``maximumBytes``.
    package init?(parsing text: String) {
        guard text.utf8.count <= Self.maximumBytes, text.hasPrefix(Self.prefix) else { return nil }
        let rest = text.dropFirst(Self.prefix.count)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let action = String(rest[..<colon])
        let afterAction = rest[rest.index(after: colon)...]
        guard let nonceEnd = afterAction.firstIndex(of: ":"), Self.isNonce(afterAction[..<nonceEnd]) else { return nil }
        let identifier = String(afterAction[afterAction.index(after: nonceEnd)...])
        guard action == PortalInterface.defaultAction || PortalInterface.actionIndex(of: action) != nil, !identifier.isEmpty else {
            return nil
        }
        self.init(action: action, nonce: String(afterAction[..<nonceEnd]), identifier: identifier)
    }

    /// The target's text.
    package var text: String {
        Self.prefix + action + ":" + nonce + ":" + identifier
    }
}
