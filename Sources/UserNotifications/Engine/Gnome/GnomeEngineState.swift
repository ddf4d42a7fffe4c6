/// What the GNOME engine keeps, under one lock: the pending list (GNOME has no scheduler), its
/// own delivered list (GNOME cannot list what it shows), the categories and the authorization.
struct GnomeEngineState: SelfKeptState {
    var pending = PendingTable()
    var delivered: [String: GnomeDelivered] = [:]
    var categories: [String: UNNotificationCategory] = [:]
    var authorizationStatus: UNAuthorizationStatus = .notDetermined
    var authorizationOptions: UNAuthorizationOptions = []
    var closed = false
}
