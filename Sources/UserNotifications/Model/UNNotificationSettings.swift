/// What the app may do with notifications, as the user and the system have set it.
///
/// Apps receive settings from the center. On Linux the center derives them from the answer to
/// the authorization request and from the notification server's capabilities; concepts a Linux
/// desktop does not have (CarPlay, the lock screen, announcements, scheduled summaries, direct
/// messages) are `.notSupported`.
open class UNNotificationSettings: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The settings' values, in one comparable record.
    struct Values: Hashable, Sendable {
        var authorizationStatus: UNAuthorizationStatus
        var soundSetting: UNNotificationSetting
        var badgeSetting: UNNotificationSetting
        var alertSetting: UNNotificationSetting
        var notificationCenterSetting: UNNotificationSetting
        var lockScreenSetting: UNNotificationSetting
        var carPlaySetting: UNNotificationSetting
        var alertStyle: UNAlertStyle
        var showPreviewsSetting: UNShowPreviewsSetting
        var criticalAlertSetting: UNNotificationSetting
        var providesAppNotificationSettings: Bool
        var announcementSetting: UNNotificationSetting
        var timeSensitiveSetting: UNNotificationSetting
        var scheduledDeliverySetting: UNNotificationSetting
        var directMessagesSetting: UNNotificationSetting
        var locationSetting: UNNotificationSetting
    }

    let values: Values

    /// Creates settings; every value not given is the "nothing known, nothing supported" one.
    init(
        authorizationStatus: UNAuthorizationStatus = .notDetermined,
        soundSetting: UNNotificationSetting = .notSupported,
        badgeSetting: UNNotificationSetting = .notSupported,
        alertSetting: UNNotificationSetting = .notSupported,
        notificationCenterSetting: UNNotificationSetting = .notSupported,
        lockScreenSetting: UNNotificationSetting = .notSupported,
        carPlaySetting: UNNotificationSetting = .notSupported,
        alertStyle: UNAlertStyle = .none,
        showPreviewsSetting: UNShowPreviewsSetting = .always,
        criticalAlertSetting: UNNotificationSetting = .notSupported,
        providesAppNotificationSettings: Bool = false,
        announcementSetting: UNNotificationSetting = .notSupported,
        timeSensitiveSetting: UNNotificationSetting = .notSupported,
        scheduledDeliverySetting: UNNotificationSetting = .notSupported,
        directMessagesSetting: UNNotificationSetting = .notSupported,
        locationSetting: UNNotificationSetting = .notSupported
    ) {
        values = Values(
            authorizationStatus: authorizationStatus,
            soundSetting: soundSetting,
            badgeSetting: badgeSetting,
            alertSetting: alertSetting,
            notificationCenterSetting: notificationCenterSetting,
            lockScreenSetting: lockScreenSetting,
            carPlaySetting: carPlaySetting,
            alertStyle: alertStyle,
            showPreviewsSetting: showPreviewsSetting,
            criticalAlertSetting: criticalAlertSetting,
            providesAppNotificationSettings: providesAppNotificationSettings,
            announcementSetting: announcementSetting,
            timeSensitiveSetting: timeSensitiveSetting,
            scheduledDeliverySetting: scheduledDeliverySetting,
            directMessagesSetting: directMessagesSetting,
            locationSetting: locationSetting
        )
        super.init()
    }

    /// Whether the app may post notifications at all.
    open var authorizationStatus: UNAuthorizationStatus { values.authorizationStatus }

    /// Whether notifications may play sounds.
    open var soundSetting: UNNotificationSetting { values.soundSetting }

    /// Whether notifications may set the app's badge.
    open var badgeSetting: UNNotificationSetting { values.badgeSetting }

    /// Whether notifications may appear on screen.
    open var alertSetting: UNNotificationSetting { values.alertSetting }

    /// Whether notifications stay in the notification list.
    open var notificationCenterSetting: UNNotificationSetting { values.notificationCenterSetting }

    /// Whether notifications appear on the lock screen. `.notSupported` on Linux.
    open var lockScreenSetting: UNNotificationSetting { values.lockScreenSetting }

    /// Whether notifications appear in CarPlay. `.notSupported` on Linux.
    open var carPlaySetting: UNNotificationSetting { values.carPlaySetting }

    /// How notifications appear on screen.
    open var alertStyle: UNAlertStyle { values.alertStyle }

    /// When notification bodies are shown.
    open var showPreviewsSetting: UNShowPreviewsSetting { values.showPreviewsSetting }

    /// Whether critical alerts may break through Do Not Disturb.
    open var criticalAlertSetting: UNNotificationSetting { values.criticalAlertSetting }

    /// Whether the app asked to show its own notification settings screen.
    open var providesAppNotificationSettings: Bool { values.providesAppNotificationSettings }

    /// Whether Siri may announce notifications. `.notSupported` on Linux.
    open var announcementSetting: UNNotificationSetting { values.announcementSetting }

    /// Whether time-sensitive notifications may break through Focus.
    open var timeSensitiveSetting: UNNotificationSetting { values.timeSensitiveSetting }

    /// Whether notifications are held for a scheduled summary. `.notSupported` on Linux.
    open var scheduledDeliverySetting: UNNotificationSetting { values.scheduledDeliverySetting }

    /// Whether direct-message notifications may break through Focus. `.notSupported` on Linux.
    open var directMessagesSetting: UNNotificationSetting { values.directMessagesSetting }

    /// Whether location triggers can be watched. **Linux addition, not Apple API** (Apple's
    /// settings have no such value: there, the app asks CoreLocation). `.enabled` when GeoClue2
    /// runs or can be started on the system bus, `.disabled` when it refused the app (`Start`
    /// failed with `AccessDenied`, or the app's client was turned off), `.notSupported` when it
    /// is absent. A center whose notifications go through the per-user agent sees only whether
    /// GeoClue runs or can be activated (`.enabled` or `.notSupported`): a refusal of the agent
    /// shows when `add` fails.
    open var locationSetting: UNNotificationSetting { values.locationSetting }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationSettings)?.values == values
    }

    open override var hash: Int { values.hashValue }

    /// Settings are immutable, so a copy is the settings object itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        for (key, value) in rawValues {
            coder.encode(value, forKey: key)
        }
    }

    public required init?(coder: NSCoder) {
        func setting(_ key: String) -> UNNotificationSetting {
            UNNotificationSetting(rawValue: coder.decodeInteger(forKey: key)) ?? .notSupported
        }
        let status = UNAuthorizationStatus(rawValue: coder.decodeInteger(forKey: "authorizationStatus"))
        let previews = UNShowPreviewsSetting(rawValue: coder.decodeInteger(forKey: "showPreviewsSetting"))
        values = Values(
            authorizationStatus: status ?? .notDetermined,
            soundSetting: setting("soundSetting"),
            badgeSetting: setting("badgeSetting"),
            alertSetting: setting("alertSetting"),
            notificationCenterSetting: setting("notificationCenterSetting"),
            lockScreenSetting: setting("lockScreenSetting"),
            carPlaySetting: setting("carPlaySetting"),
            alertStyle: UNAlertStyle(rawValue: coder.decodeInteger(forKey: "alertStyle")) ?? .none,
            showPreviewsSetting: previews ?? .always,
            criticalAlertSetting: setting("criticalAlertSetting"),
            providesAppNotificationSettings: coder.decodeInteger(forKey: "providesAppNotificationSettings") != 0,
            announcementSetting: setting("announcementSetting"),
            timeSensitiveSetting: setting("timeSensitiveSetting"),
            scheduledDeliverySetting: setting("scheduledDeliverySetting"),
            directMessagesSetting: setting("directMessagesSetting"),
            locationSetting: setting("locationSetting")
        )
        super.init()
    }

    /// Every value as an integer under its property's name, for archiving.
    private var rawValues: [String: Int] {
        [
            "authorizationStatus": authorizationStatus.rawValue,
            "soundSetting": soundSetting.rawValue,
            "badgeSetting": badgeSetting.rawValue,
            "alertSetting": alertSetting.rawValue,
            "notificationCenterSetting": notificationCenterSetting.rawValue,
            "lockScreenSetting": lockScreenSetting.rawValue,
            "carPlaySetting": carPlaySetting.rawValue,
            "alertStyle": alertStyle.rawValue,
            "showPreviewsSetting": showPreviewsSetting.rawValue,
            "criticalAlertSetting": criticalAlertSetting.rawValue,
            "providesAppNotificationSettings": providesAppNotificationSettings ? 1 : 0,
            "announcementSetting": announcementSetting.rawValue,
            "timeSensitiveSetting": timeSensitiveSetting.rawValue,
            "scheduledDeliverySetting": scheduledDeliverySetting.rawValue,
            "directMessagesSetting": directMessagesSetting.rawValue,
            "locationSetting": locationSetting.rawValue,
        ]
    }
}
