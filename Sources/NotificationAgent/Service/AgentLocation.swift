import UserNotifications

/// The agent's one GeoClue2 client, shared by every app's engine: the location triggers of all
/// apps are watched through it (see `LocationHub`).
///
/// GeoClue is told the agent's own desktop id, `org.desktopnotifications.Agent`: one client
/// serves every app, so GeoClue's per-app permission applies to the agent as a whole. The
/// agent looks for GeoClue on the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when set).
enum AgentLocation {
    /// The desktop id GeoClue is told.
    static let desktopID = "org.desktopnotifications.Agent"

    /// The shared hub, made when the first app's engine starts.
    static let hub = LocationHub(desktopID: desktopID)
}
