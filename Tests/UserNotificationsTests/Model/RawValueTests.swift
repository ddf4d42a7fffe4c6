import Testing
@testable import UserNotifications

/// Raw values must be Apple's, so that stored or bridged values mean the same on both sides.
@Suite("Apple's raw values")
struct RawValueTests {
    @Test func authorizationOptions() {
        #expect(UNAuthorizationOptions.badge.rawValue == 1)
        #expect(UNAuthorizationOptions.sound.rawValue == 2)
        #expect(UNAuthorizationOptions.alert.rawValue == 4)
        #expect(UNAuthorizationOptions.carPlay.rawValue == 8)
        #expect(UNAuthorizationOptions.criticalAlert.rawValue == 16)
        #expect(UNAuthorizationOptions.providesAppNotificationSettings.rawValue == 32)
        #expect(UNAuthorizationOptions.provisional.rawValue == 64)
        #expect(UNAuthorizationOptions.announcement.rawValue == 128)
        #expect(UNAuthorizationOptions.timeSensitive.rawValue == 256)
        #expect(([.alert, .sound, .badge] as UNAuthorizationOptions).rawValue == 7)
    }

    @Test func actionOptions() {
        #expect(UNNotificationActionOptions.authenticationRequired.rawValue == 1)
        #expect(UNNotificationActionOptions.destructive.rawValue == 2)
        #expect(UNNotificationActionOptions.foreground.rawValue == 4)
    }

    @Test func categoryOptions() {
        #expect(UNNotificationCategoryOptions.customDismissAction.rawValue == 1)
        #expect(UNNotificationCategoryOptions.allowInCarPlay.rawValue == 2)
        #expect(UNNotificationCategoryOptions.hiddenPreviewsShowTitle.rawValue == 4)
        #expect(UNNotificationCategoryOptions.hiddenPreviewsShowSubtitle.rawValue == 8)
        #expect(UNNotificationCategoryOptions.allowAnnouncement.rawValue == 16)
    }

    @Test func presentationOptions() {
        #expect(UNNotificationPresentationOptions.badge.rawValue == 1)
        #expect(UNNotificationPresentationOptions.sound.rawValue == 2)
        #expect(UNNotificationPresentationOptions.alert.rawValue == 4)
        #expect(UNNotificationPresentationOptions.list.rawValue == 8)
        #expect(UNNotificationPresentationOptions.banner.rawValue == 16)
    }

    @Test func enumerations() {
        #expect([UNAuthorizationStatus.notDetermined, .denied, .authorized, .provisional, .ephemeral].map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect([UNNotificationSetting.notSupported, .disabled, .enabled].map(\.rawValue) == [0, 1, 2])
        #expect([UNAlertStyle.none, .banner, .alert].map(\.rawValue) == [0, 1, 2])
        #expect([UNShowPreviewsSetting.always, .whenAuthenticated, .never].map(\.rawValue) == [0, 1, 2])
        #expect([UNNotificationInterruptionLevel.passive, .active, .timeSensitive, .critical].map(\.rawValue) == [0, 1, 2, 3])
    }

    @Test func actionIdentifiers() {
        #expect(UNNotificationDefaultActionIdentifier == "com.apple.UNNotificationDefaultActionIdentifier")
        #expect(UNNotificationDismissActionIdentifier == "com.apple.UNNotificationDismissActionIdentifier")
    }
}

@Suite("Presentation options as the center reads them")
struct PresentationOptionTests {
    @Test func deprecatedAlertMeansBannerAndList() {
        let alert: UNNotificationPresentationOptions = [.alert]
        #expect(alert.showsBanner && alert.showsInList)
    }

    @Test func bannerAndListAreIndependent() {
        let banner: UNNotificationPresentationOptions = [.banner, .sound]
        let list: UNNotificationPresentationOptions = [.list]
        #expect(banner.showsBanner && !banner.showsInList)
        #expect(list.showsInList && !list.showsBanner)
        #expect(!UNNotificationPresentationOptions([]).showsBanner)
    }
}
