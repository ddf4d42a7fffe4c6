import Foundation
import UserNotifications

extension FuzzTarget {
    /// The target of the GNOME engine's `app.notification-response` action as any bus peer may
    /// send it back through `org.freedesktop.Application.ActivateAction`: an accepted target
    /// must survive its own encoding with its identifier and action.
    static func gnomeActionTarget() -> FuzzTarget {
        FuzzTarget(
            name: "gnome-action-target",
            seeds: gnomeSeeds().map { Array($0.utf8) },
            tokens: [
                "{", "}", "[", "]", ",", ":", "null", "true", "1e999", "-1", "\"actionIdentifier\"", "\"notification\"", "\"request\"",
                "\"content\"", "\"userText\"", "\"activationToken\"", "\"userInfo\"", "\"date\"", "\"\\u0000\"", "\"\\ud800\"",
                "9223372036854775807",
            ].map { Array($0.utf8) },
            nesting: ["[", "{\"a\":", "{\"array\":{\"_0\":[", "{\"dictionary\":{\"_0\":{\"k\":"].map { Array($0.utf8) },
            run: { bytes throws(FuzzFinding) in
                let text = String(decoding: bytes, as: UTF8.self)
                guard let response = try? GnomeActionTarget.decode(text) else { return .refused }
                let request = response.notification.request
                let textInput = response is UNTextInputNotificationResponse
                guard let again = GnomeActionTarget.encode(
                    request, date: response.notification.date, actionIdentifier: response.actionIdentifier, textInput: textInput) else {
                    // The engine writes every key, so a peer's target that leaves keys out may
                    // not fit again, but only when the texts that always travel are long.
                    let kept = request.identifier.utf8.count + request.content.categoryIdentifier.utf8.count
                        + request.content.threadIdentifier.utf8.count + response.actionIdentifier.utf8.count
                    guard kept > GnomeActionTarget.maximumBytes / 2 else {
                        throw FuzzFinding(description: "an accepted target of \(text.utf8.count) bytes does not encode again")
                    }
                    return .accepted
                }
                let decoded: UNNotificationResponse
                do {
                    decoded = try GnomeActionTarget.decode(again)
                } catch {
                    throw FuzzFinding(description: "a target the engine encoded does not decode: \(error)")
                }
                guard decoded.notification.request.identifier == request.identifier, decoded.actionIdentifier == response.actionIdentifier else {
                    throw FuzzFinding(description: "\(request.identifier) \(response.actionIdentifier) came back as "
                        + "\(decoded.notification.request.identifier) \(decoded.actionIdentifier)")
                }
                return .accepted
            }
        )
    }

    /// A desktop entry as anyone may install one, read for `DBusActivatable` by the engine
    /// choice: any bytes give an answer; the answer must not depend on a trailing newline.
    static let activatableEntry = FuzzTarget(
        name: "activatable-entry",
        seeds: [
            "[Desktop Entry]\nType=Application\nName=App\nExec=app\nDBusActivatable=true\n",
            "# c\r\n[Desktop Entry]\r\nDBusActivatable = true\r\n[Desktop Action new]\r\nDBusActivatable=false\r\n",
        ].map { Array($0.utf8) },
        tokens: ["[", "]", "=", "\n", "\r\n", "#", " ", "\t", "[Desktop Entry]\n", "DBusActivatable", "true", "false", "\u{0}"]
            .map { Array($0.utf8) } + [[0xC3], [0xFF, 0xFE]],
        nesting: ["[", "[Desktop Entry]\n"].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            let answer = ActivatableDesktopEntry.isActivatable(bytes)
            guard bytes.count < ActivatableDesktopEntry.maximumBytes else { return answer ? .accepted : .refused }
            guard ActivatableDesktopEntry.isActivatable(bytes + [UInt8(ascii: "\n")]) == answer else {
                throw FuzzFinding(description: "a trailing newline changed the answer from \(answer)")
            }
            return answer ? .accepted : .refused
        }
    )

    /// Targets the GNOME engine makes: a button, a text-input button, and the click.
    private static func gnomeSeeds() -> [String] {
        let content = UNMutableNotificationContent()
        content.title = "Standup"
        content.body = "In 5 minutes"
        content.categoryIdentifier = "meeting"
        content.userInfo = ["k": "v", "n": 5, "list": [true, 1.5]]
        let request = UNNotificationRequest(identifier: "now", content: content, trigger: nil)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        return [
            GnomeActionTarget.encode(request, date: date, actionIdentifier: "ok", textInput: false) ?? "",
            GnomeActionTarget.encode(request, date: date, actionIdentifier: "reply", textInput: true) ?? "",
            GnomeActionTarget.encode(request, date: date, actionIdentifier: UNNotificationDefaultActionIdentifier, textInput: false) ?? "",
        ]
    }
}
