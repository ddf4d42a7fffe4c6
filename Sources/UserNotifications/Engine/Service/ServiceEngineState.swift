/// What a ``ServiceEngine`` keeps, under its one lock: the pending list (the service has no
/// scheduler), its own delivered list (the service cannot list what it shows), the categories
/// and the authorization; and how many holders (a pending request, a delivery on its way, a
/// listed notification) use each folder of stored attachments.
struct ServiceEngineState: Sendable {
    var pending = PendingTable()
    var delivered = ServiceDeliveredList()
    var ledger = AttachmentLedger()
    var categories: [String: UNNotificationCategory] = [:]
    var authorizationStatus: UNAuthorizationStatus = .notDetermined
    var authorizationOptions: UNAuthorizationOptions = []
    /// Set by ``ServiceEngine/close()``: a trigger that falls due after it delivers nothing.
    var closed = false
}
