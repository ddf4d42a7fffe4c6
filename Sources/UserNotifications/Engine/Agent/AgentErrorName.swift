import DBus

/// The D-Bus error names of the agent's refusals, and their way back to typed errors.
///
/// ``NotificationAgentError`` cases are `org.desktopnotifications.Agent1.Error.NotAllowed`,
/// `.LimitReached`, `.InvalidArgument`, `.UnknownApp`, `.Failed` and `.IncompatibleVersion` (the
/// agent's version as its message; the agent itself never answers it); a ``UNError`` is
/// `.UNError<code>` (e.g. `.UNError1401`); a ``NotificationDeliveryError`` is
/// `.NoNotificationServer`, `.InvalidContent` or `.ServerFailed`; a ``LocationServiceError`` is
/// `.LocationUnavailable`, `.LocationDenied` or `.LocationFailed`. A call that was not read
/// (``DBus/DBusCallRefusal``) is D-Bus's own `UnknownMethod` for an unknown member, and
/// `.InvalidArgument` for arguments of another signature.
package enum AgentErrorName {
    /// The prefix of every error name.
    package static let prefix = "org.desktopnotifications.Agent1.Error."

    /// The D-Bus error name and message for `error`.
    package static func encode(_ error: any Error) -> (name: String, message: String) {
        switch error {
        case let refusal as DBusCallRefusal:
            if case .invalidArguments = refusal { (prefix + "InvalidArgument", refusal.description) } else { (refusal.errorName, refusal.description) }
        case let error as NotificationAgentError:
            switch error {
            case .notAllowed(let detail): (prefix + "NotAllowed", detail)
            case .limitReached(let detail): (prefix + "LimitReached", detail)
            case .invalidArgument(let detail): (prefix + "InvalidArgument", detail)
            case .unknownApp(let detail): (prefix + "UnknownApp", detail)
            case .failed(let detail): (prefix + "Failed", detail)
            case .incompatibleVersion(let agent): (prefix + "IncompatibleVersion", "\(agent)")
            }
        case let error as UNError: (prefix + "UNError\(error.code.rawValue)", error.localizedDescription)
        case let error as NotificationDeliveryError:
            switch error {
            case .invalidContent(let field, let reason): (prefix + "InvalidContent", "\(field)\u{1F}\(reason)")
            case .noNotificationServer(let detail): (prefix + "NoNotificationServer", detail)
            case .serverFailed(let detail): (prefix + "ServerFailed", detail)
            }
        case let error as LocationServiceError:
            switch error {
            case .serviceUnavailable(let detail): (prefix + "LocationUnavailable", detail)
            case .accessDenied(let detail): (prefix + "LocationDenied", detail)
            case .serviceFailed(let detail): (prefix + "LocationFailed", detail)
            }
        default: (prefix + "Failed", String(describing: error))
        }
    }

    /// The typed error for an error reply of the agent; anything that is not the agent's own
    /// error (a timeout, a disconnect, a bus refusal) is ``NotificationAgentError/failed(_:)``.
    package static func decode(_ error: any Error) -> any Error {
        guard case DBusError.remote(let name, let message) = error, name.hasPrefix(prefix) else {
            return NotificationAgentError.failed(String(describing: error))
        }
        let suffix = name.dropFirst(prefix.count)
        if suffix.hasPrefix("UNError"), let raw = Int(suffix.dropFirst("UNError".count)), let code = UNError.Code(rawValue: raw) {
            return UNError(code)
        }
        switch suffix {
        case "NotAllowed": return NotificationAgentError.notAllowed(message)
        case "LimitReached": return NotificationAgentError.limitReached(message)
        case "InvalidArgument": return NotificationAgentError.invalidArgument(message)
        case "UnknownApp": return NotificationAgentError.unknownApp(message)
        case "IncompatibleVersion": return NotificationAgentError.incompatibleVersion(agent: UInt32(message) ?? 0)
        case "NoNotificationServer": return NotificationDeliveryError.noNotificationServer(message)
        case "ServerFailed": return NotificationDeliveryError.serverFailed(message)
        case "LocationUnavailable": return LocationServiceError.serviceUnavailable(message)
        case "LocationDenied": return LocationServiceError.accessDenied(message)
        case "LocationFailed": return LocationServiceError.serviceFailed(message)
        case "InvalidContent":
            let parts = message.split(separator: "\u{1F}", maxSplits: 1).map(String.init)
            return NotificationDeliveryError.invalidContent(field: parts.first ?? "", reason: parts.count > 1 ? parts[1] : "")
        default: return NotificationAgentError.failed(message)
        }
    }
}
