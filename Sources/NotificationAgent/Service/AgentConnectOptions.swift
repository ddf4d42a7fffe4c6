import DBus
import UserNotifications

/// The identity an app connects with (`Connect`'s `name` and `icon`) and the categories of its
/// content extensions, bounded before the agent keeps or sends any of it.
enum AgentConnectOptions {
    /// The categories `Connect` names for the app's content extensions
    /// (``UserNotifications/AgentInterface/contentExtensionCategoriesOption``); none when the
    /// option is absent.
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/invalidArgument(_:)`` for a value
    ///   that is not a list of strings, more than
    ///   ``UserNotifications/AgentInterface/maximumContentExtensionCategories`` names, a name over
    ///   ``UserNotifications/AgentInterface/maximumCategoryIdentifierBytes`` bytes, or one with a
    ///   control character.
    static func contentExtensionCategories(_ value: DBusValue?) throws(NotificationAgentError) -> Set<String> {
        guard let value else { return [] }
        let option = AgentInterface.contentExtensionCategoriesOption
        guard let names = value.stringArrayValue else { throw .invalidArgument("\(option) takes a list of strings (as)") }
        guard names.count <= AgentInterface.maximumContentExtensionCategories else {
            throw .invalidArgument("\(option) names \(names.count) categories, over \(AgentInterface.maximumContentExtensionCategories)")
        }
        for name in names {
            guard name.utf8.count <= AgentInterface.maximumCategoryIdentifierBytes else {
                throw .invalidArgument("a category of \(option) is \(name.utf8.count) bytes, over \(AgentInterface.maximumCategoryIdentifierBytes)")
            }
            guard !containsControl(name) else { throw .invalidArgument("the categories of \(option) take no control characters") }
        }
        return Set(names)
    }

    /// The identity `Connect` asks for.
    ///
    /// - Throws: ``UserNotifications/NotificationAgentError/invalidArgument(_:)`` for a name
    ///   over ``AgentLimits/displayNameBytes``, an icon over ``AgentLimits/iconBytes``, or
    ///   either with a control character.
    static func identity(appID: String, name: String?, icon: String?) throws(NotificationAgentError) -> ApplicationIdentity {
        let name = name ?? appID
        let icon = icon ?? ""
        guard name.utf8.count <= AgentLimits.displayNameBytes else {
            throw .invalidArgument("the display name is \(name.utf8.count) bytes, over \(AgentLimits.displayNameBytes)")
        }
        guard icon.utf8.count <= AgentLimits.iconBytes else {
            throw .invalidArgument("the icon is \(icon.utf8.count) bytes, over \(AgentLimits.iconBytes)")
        }
        guard !containsControl(name), !containsControl(icon) else {
            throw .invalidArgument("the display name and the icon take no control characters")
        }
        return ApplicationIdentity(id: appID, displayName: name.isEmpty ? appID : name, icon: icon)
    }

    /// Throws unless `icon` is what a caller of `confinement` may name: anything within the
    /// bounds for a host app; for a sandboxed app, a theme name (no `/`), since a path would
    /// make the notification server read a host file on the app's behalf.
    static func check(icon: String, confinement: CallerConfinement) throws(NotificationAgentError) {
        guard confinement == .sandboxed, icon.contains("/") else { return }
        throw .notAllowed("a sandboxed app names its icon from the icon theme, not by path")
    }

    private static func containsControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
