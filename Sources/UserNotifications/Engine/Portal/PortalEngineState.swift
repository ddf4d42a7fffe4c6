/// What the portal engine keeps, under one lock: the pending list (the portal has no
/// scheduler), its own delivered list (the portal cannot list what its server shows), the
/// categories, the authorization, and what the portal was last seen to support.
struct PortalEngineState: SelfKeptState {
    var pending = PendingTable()
    var delivered: [String: PortalDelivered] = [:]
    var categories: [String: UNNotificationCategory] = [:]
    var authorizationStatus: UNAuthorizationStatus = .notDetermined
    var authorizationOptions: UNAuthorizationOptions = []
    /// `nil` until the portal answered its properties.
    var features: PortalFeatures?
    /// Whether the app id was seen as a bus name with an owner or an activatable service, so
    /// actions go to `org.freedesktop.Application` (kept once seen: a center serves until it
    /// goes away).
    var servesApplicationInterface = false
    /// Whether the bus can start the app id (a D-Bus service file names it); `nil` until asked.
    var applicationActivatable: Bool?
    var closed = false
}
