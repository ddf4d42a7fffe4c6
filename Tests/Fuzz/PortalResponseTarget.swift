import UserNotifications

extension FuzzTarget {
    /// `PortalResponseID(parsing:)`: the target of an `app.notification-response` action
    /// (`portal:<action>:<nonce>:<identifier>`), as any bus peer may send it to the app side's
    /// `ActivateAction`. An accepted target must be its own text again, parse to the same
    /// value, and carry a nonce of the form the engine makes.
    static let portalTarget = FuzzTarget(
        name: "portal-target",
        seeds: [
            "portal:default:0123456789abcdef0123456789abcdef:a", "portal:action.0:ffffffffffffffffffffffffffffffff:message-1",
            "portal:action.12:00000000000000000000000000000000:a:b:c", "portal:default:9f86d081884c7d659a2feaa0c55ad015:ünï cöde",
        ].map { Array($0.utf8) },
        tokens: [
            "portal:", ":", "default", "action.", "0", "-1", "99999999999999999999", "app.", "\u{0}", " ", "%",
            "0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef", "g",
        ].map { Array($0.utf8) }
            + [[0xC3], [0xFF, 0xFE], [0xED, 0xA0, 0x80]],
        nesting: [":", "portal:"].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let parsed = PortalResponseID(parsing: text) else { return .refused }
            guard parsed.text == text, PortalResponseID(parsing: parsed.text) == parsed, PortalResponseID.isNonce(parsed.nonce[...]) else {
                throw FuzzFinding(description: "accepted \(text.debugDescription) reads back as \(parsed.text.debugDescription)")
            }
            return .accepted
        }
    )
}
