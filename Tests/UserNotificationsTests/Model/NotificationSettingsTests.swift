import Foundation
import Testing
@testable import UserNotifications

@Suite("UNNotificationSettings")
struct NotificationSettingsTests {
    @Test func unspecifiedValuesMeanNothingKnownAndNothingSupported() {
        let settings = UNNotificationSettings()
        #expect(settings.authorizationStatus == .notDetermined)
        #expect(settings.soundSetting == .notSupported && settings.carPlaySetting == .notSupported)
        #expect(settings.alertStyle == .none && settings.showPreviewsSetting == .always)
        #expect(!settings.providesAppNotificationSettings)
    }

    @Test func theCenterCanSetEveryValue() {
        let settings = authorizedSettings()
        #expect(settings.authorizationStatus == .authorized)
        #expect(settings.soundSetting == .enabled && settings.badgeSetting == .enabled && settings.alertSetting == .enabled)
        #expect(settings.notificationCenterSetting == .disabled && settings.lockScreenSetting == .notSupported)
        #expect(settings.alertStyle == .banner && settings.showPreviewsSetting == .whenAuthenticated)
        #expect(settings.criticalAlertSetting == .disabled && settings.providesAppNotificationSettings)
        #expect(settings.timeSensitiveSetting == .enabled && settings.directMessagesSetting == .disabled)
    }

    @Test func settingsAreEqualByValueAndSurviveSecureCoding() throws {
        #expect(authorizedSettings() == authorizedSettings())
        #expect(authorizedSettings() != UNNotificationSettings(authorizationStatus: .denied))
        #expect(try secureCodingRoundTrip(authorizedSettings()) == authorizedSettings())
    }

    private func authorizedSettings() -> UNNotificationSettings {
        UNNotificationSettings(
            authorizationStatus: .authorized,
            soundSetting: .enabled,
            badgeSetting: .enabled,
            alertSetting: .enabled,
            notificationCenterSetting: .disabled,
            alertStyle: .banner,
            showPreviewsSetting: .whenAuthenticated,
            criticalAlertSetting: .disabled,
            providesAppNotificationSettings: true,
            timeSensitiveSetting: .enabled,
            directMessagesSetting: .disabled
        )
    }
}
