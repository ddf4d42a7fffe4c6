import DBus

/// The names of the per-user agent's D-Bus interface: `org.desktopnotifications.Agent1` served
/// by the agent, and `org.desktopnotifications.AgentClient1` served by each app's center.
/// `dbus/org.desktopnotifications.Agent1.xml` and `dbus/org.desktopnotifications.AgentClient1.xml`
/// describe them; the build generates ``Agent1Spec`` and ``AgentClient1Spec`` from them (their
/// names, the introspection text served and each member's signatures).
///
/// Every method but `Version` and `Status` takes the caller's app id first. Requests,
/// contents, notifications, categories and responses travel as `a{sv}` records of typed
/// fields (``AgentPayload``), at most ``maximumArgumentBytes`` each; only `Status`, a report
/// for people and scripts, answers JSON.
///
/// One version: the agent and the center's engine ship together, and a center speaks only
/// ``version``. `Version` and `Connect` answer it; a center whose `Connect` is answered with
/// another (an agent left running by another install) uses no method of it, and throws
/// ``NotificationAgentError/incompatibleVersion(agent:)`` instead. The center adds a request
/// with attachments as `AddFiles` (their bytes travel as descriptors, one per attachment in
/// order: the agent never opens a path a sandboxed app names), an immediate one as
/// `AddPresented` (with the presentation options the app's delegate gave before it was sent, so
/// the agent does not ask `WillPresent` back), and one with a trigger as `Add`, or packed with
/// the adds made while one is on its way into one `AddRequests` (up to
/// ``maximumBatchRequests`` requests, each added as `Add` adds it, in order, with an answer of
/// its own). The agent asks a connected center `ServiceExtension` to run its service extension
/// on a pushed request with `mutable-content`, and `ContentExtensionShown` and
/// `ContentExtensionResponse` about the notifications of the categories its content extensions
/// handle (``contentExtensionCategoriesOption``).
package enum AgentInterface {
    /// The well-known name the agent owns.
    package static let busName = "org.desktopnotifications.Agent"
    /// The agent's interface.
    package static let name = Agent1Spec.name
    /// The agent's object.
    package static let path = try! DBusObjectPath("/org/desktopnotifications/Agent")
    /// The interface a connected center serves to the agent.
    package static let clientName = AgentClient1Spec.name
    /// The center's object.
    package static let clientPath = try! DBusObjectPath("/org/desktopnotifications/AgentClient")
    /// The interface's version, answered by `Version` and `Connect`: the only one a center
    /// speaks.
    package static let version: UInt32 = 7
    /// The most requests one `AddRequests` call takes; a longer list gets
    /// ``NotificationAgentError/invalidArgument(_:)`` and adds none of them.
    package static let maximumBatchRequests = 1_000
    /// The most bytes of request records one `AddRequests` call takes, all its requests
    /// together (8 MiB, as ``AgentPayload/size(of:)`` counts them); more gets ``NotificationAgentError/invalidArgument(_:)`` and adds none of them.
    package static let maximumBatchBytes = 8 << 20
    /// How long the agent waits for a center's `ServiceExtension` answer: Apple's 30 s budget
    /// of a service extension, and 5 s more for the call and the content's way back. A center
    /// whose extension has a longer deadline (``UNUserNotificationCenter/setServiceExtension(_:deadline:)``)
    /// is not waited for past this; the push is shown as sent then.
    package static let serviceExtensionDeadline: Duration = .seconds(35)
    /// The largest record or list of records in an argument or answer, in bytes (1 MiB, as
    /// ``AgentPayload/size(of:)`` counts them); a larger argument gets
    /// ``AgentError/invalidArgument(_:)``.
    package static let maximumArgumentBytes = 1 << 20
    /// The `Connect` option (`as`) naming the categories the app's content extensions handle:
    /// while its center is connected, the agent posts those notifications resident and asks
    /// the center's `ContentExtensionShown` and `ContentExtensionResponse` about them. At most
    /// ``maximumContentExtensionCategories`` names, each a category identifier of at most
    /// ``maximumCategoryIdentifierBytes`` bytes.
    package static let contentExtensionCategoriesOption = "contentExtensionCategories"
    /// The most categories ``contentExtensionCategoriesOption`` may name.
    package static let maximumContentExtensionCategories = 256
    /// The longest category identifier ``contentExtensionCategoriesOption`` may name, in bytes.
    package static let maximumCategoryIdentifierBytes = 1_024
    /// How long the agent waits for a center's `ContentExtensionShown` and
    /// `ContentExtensionResponse` answers; without one in time a response is handed on as
    /// without an extension.
    package static let contentExtensionDeadline: Duration = .seconds(30)
    /// The agent's `Response` signal.
    package static let responseSignal = Agent1Spec.Signal.response.rawValue

    /// The `<interface>` element of `org.desktopnotifications.Agent1`, as its file has it.
    package static let introspectionXML = Agent1Spec.introspectionXML

    /// The `<interface>` element of `org.desktopnotifications.AgentClient1`, as its file has it.
    package static let clientIntrospectionXML = AgentClient1Spec.introspectionXML
}
