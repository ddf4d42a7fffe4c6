/// The trigger of a notification that arrived from a server rather than being scheduled here.
///
/// Apps never create one. On Linux the center sets it on requests built from a remote
/// (APNs-style JSON) payload, so `isKind(of: UNPushNotificationTrigger.self)` tells remote
/// notifications from local ones as it does on Apple platforms.
open class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    init() {
        super.init(repeats: false)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
