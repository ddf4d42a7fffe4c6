import DBus

// Actions that relaunch the app: `app.notification-response` with a target naming the
// notification and the action, which the portal activates through
// org.freedesktop.Application.ActivateAction on the app id's bus name, even after the app
// exited (see ``PortalResponseID``).
extension PortalPayload.Delivery {
    /// The portal action that reaches the app side's `ActivateAction`.
    static let applicationAction = "app." + ApplicationInterface.notificationResponseAction

    /// Rewrites the default action and every button but a reply button (one with the
    /// `im.reply-with-text` purpose, whose text only the `ActionInvoked` signal carries) of the
    /// notification `identifier` into ``applicationAction`` with a ``PortalResponseID``
    /// target that carries `nonce`, the notification's. Text-input actions stay plain too: the
    /// portal hands their text to the running app alone.
    mutating func activatingApplication(identifier: String, nonce: String, textInputIndices: Set<Int>) {
        var rewritten: [(String, DBusValue)] = []
        for (key, value) in entries {
            switch key {
            case "default-action":
                rewritten.append((key, .string(Self.applicationAction)))
                rewritten.append((
                    "default-action-target",
                    .string(PortalResponseID(action: PortalInterface.defaultAction, nonce: nonce, identifier: identifier).text)))
            case "buttons":
                guard case .array(let element, let buttons) = value else {
                    rewritten.append((key, value))
                    continue
                }
                let changed = buttons.enumerated().map { index, button in
                    Self.button(button, identifier: identifier, nonce: nonce, plain: textInputIndices.contains(index))
                }
                rewritten.append((key, .array(element: element, changed)))
            default:
                rewritten.append((key, value))
            }
        }
        entries = rewritten
    }

    private static func button(_ button: DBusValue, identifier: String, nonce: String, plain: Bool) -> DBusValue {
        guard !plain, let fields = button.variantDictionaryValue, let action = fields["action"]?.stringValue,
              fields["purpose"] == nil else { return button }
        var pairs: [(String, DBusValue)] = [
            ("label", fields["label"] ?? .string("")), ("action", .string(applicationAction)),
            ("target", .string(PortalResponseID(action: action, nonce: nonce, identifier: identifier).text)),
        ]
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) where !["label", "action", "target"].contains(key) {
            pairs.append((key, value))
        }
        return .variantDictionary(pairs)
    }
}
