import DBus
import Foundation

/// One call of `org.freedesktop.Application`, read from a message of any peer: typed, each
/// string bounded by ``ApplicationInterface/maximumStringBytes`` and `Open`'s URIs by
/// ``ApplicationInterface/maximumURICount``.
enum ApplicationInterfaceCall: Sendable, Equatable {
    /// `Activate(a{sv})`.
    case activate(ApplicationActivation)
    /// `Open(as, a{sv})`.
    case open([URL], ApplicationActivation)
    /// `ActivateAction("notification-response", [<s response id>], a{sv})`.
    case notificationResponse(id: String, ApplicationActivation)

    /// The call `message` makes.
    ///
    /// - Throws: ``ApplicationCallRefusal``: `UnknownMethod` for a member the interface does
    ///   not have, `InvalidArgs` for arguments of the wrong signature or out of bounds, or for
    ///   an action other than ``ApplicationInterface/notificationResponseAction``.
    static func parse(_ message: DBusMessage) throws(ApplicationCallRefusal) -> Self {
        guard let method = message.member.flatMap(ApplicationSpec.Method.init(rawValue:)) else {
            throw ApplicationCallRefusal(
                name: "org.freedesktop.DBus.Error.UnknownMethod",
                message: "\(ApplicationInterface.name) has no method \((message.member ?? "").debugDescription)")
        }
        let call: ApplicationSpec.Call
        do throws(DBusError) {
            call = try ApplicationSpec.Call(method, message.body)
        } catch {
            throw .invalidArguments("\(method.rawValue) takes (\(method.inputSignature)), not (\(message.bodySignature))")
        }
        switch call {
        case .activate(let arguments):
            return .activate(try activation(arguments.platformData))
        case .open(let arguments):
            return .open(try uris(arguments.uris), try activation(arguments.platformData))
        case .activateAction(let arguments):
            let action = try bounded(arguments.actionName, "the action name")
            guard action == ApplicationInterface.notificationResponseAction else {
                throw .invalidArguments("unknown action \(action.debugDescription)")
            }
            guard arguments.parameter.count == 1, case .string(let id) = arguments.parameter[0], !id.isEmpty else {
                throw .invalidArguments("\(action) takes one parameter, the response id (a non-empty string)")
            }
            return .notificationResponse(id: try bounded(id, "the response id"), try activation(arguments.platformData))
        }
    }

    private static func bounded(_ text: String, _ what: String) throws(ApplicationCallRefusal) -> String {
        guard text.utf8.count <= ApplicationInterface.maximumStringBytes else {
            throw .invalidArguments("\(what) is longer than \(ApplicationInterface.maximumStringBytes) bytes")
        }
        return text
    }

    /// The activation token of `platform_data`: `activation-token`, else `desktop-startup-id`;
    /// other entries, and entries of another type, are not read.
    private static func activation(_ platformData: [String: DBusValue]) throws(ApplicationCallRefusal) -> ApplicationActivation {
        func token(_ key: String) -> String? {
            guard case .string(let value)? = platformData[key], !value.isEmpty else { return nil }
            return value
        }
        guard let found = token("activation-token") ?? token("desktop-startup-id") else { return ApplicationActivation() }
        return ApplicationActivation(activationToken: try bounded(found, "the activation token"))
    }

    private static func uris(_ texts: [String]) throws(ApplicationCallRefusal) -> [URL] {
        guard texts.count <= ApplicationInterface.maximumURICount else {
            throw .invalidArguments("Open takes at most \(ApplicationInterface.maximumURICount) URIs")
        }
        var urls: [URL] = []
        for text in texts {
            guard let url = URL(string: try bounded(text, "a URI")), url.scheme != nil else {
                throw .invalidArguments("\(text.debugDescription) is not a URI")
            }
            urls.append(url)
        }
        return urls
    }
}
