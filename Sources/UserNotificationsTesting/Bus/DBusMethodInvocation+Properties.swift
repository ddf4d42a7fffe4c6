import DBus
import UserNotifications

extension DBusMethodInvocation {
    /// The `org.freedesktop.DBus.Properties` call this invocation makes, or `nil` when it makes
    /// none (an unknown member, or arguments of another signature): what a fake service's
    /// properties handler switches on.
    var propertiesCall: PropertiesSpec.Call? {
        guard let method = message.member.flatMap(PropertiesSpec.Method.init(rawValue:)) else { return nil }
        return try? PropertiesSpec.Call(method, message.body)
    }
}
