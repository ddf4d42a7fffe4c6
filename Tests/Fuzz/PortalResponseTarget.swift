import UserNotifications

extension FuzzTarget {
    /// `PortalResponseID(parsing:)`: the target of an `app.notification-response` action, as
    /// any bus peer may send it to the app side's `ActivateAction`. An accepted target must be
    /// its own text again and parse to the same value.
    static let portalTarget = FuzzTarget(
        name: "portal-target",
        seeds: ["portal:default:a", "portal:action.0:message-1", "portal:action.12:a:b:c", "portal:default:ünï cöde"].map { Array($0.utf8) },
        tokens: ["portal:", ":", "default", "action.", "0", "-1", "99999999999999999999", "app.", "\u{0}", " ", "%"].map { Array($0.utf8) }
            + [[0xC3], [0xFF, 0xFE], [0xED, 0xA0, 0x80]],
        nesting: [":", "portal:"].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let parsed = PortalResponseID(parsing: text) else { return .refused }
            guard parsed.text == text, PortalResponseID(parsing: parsed.text) == parsed else {
                throw FuzzFinding(description: "accepted \(text.debugDescription) reads back as \(parsed.text.debugDescription)")
            }
            return .accepted
        }
    )
}
