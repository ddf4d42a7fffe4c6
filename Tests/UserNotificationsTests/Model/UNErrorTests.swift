import Foundation
import Testing
@testable import UserNotifications

@Suite("UNError")
struct UNErrorTests {
    @Test func codesHaveApplesRawValues() {
        let codes: [UNError.Code: Int] = [
            .notificationsNotAllowed: 1,
            .attachmentInvalidURL: 100, .attachmentUnrecognizedType: 101, .attachmentInvalidFileSize: 102,
            .attachmentNotInDataStore: 103, .attachmentMoveIntoDataStoreFailed: 104, .attachmentCorrupt: 105,
            .notificationInvalidNoDate: 1400, .notificationInvalidNoContent: 1401,
            .contentProvidingObjectNotAllowed: 1500, .contentProvidingInvalid: 1501,
            .badgeInputInvalid: 1600,
        ]
        for (code, rawValue) in codes {
            #expect(code.rawValue == rawValue)
        }
    }

    @Test func bridgesToNSErrorWithApplesDomainAndCode() {
        let error = UNError(.attachmentCorrupt) as NSError
        #expect(error.domain == "UNErrorDomain")
        #expect(UNErrorDomain == "UNErrorDomain")
        #expect(error.code == 105)
    }

    @Test func describesItsCodeWhenGivenNoMessage() {
        let error: any Error = UNError(.notificationsNotAllowed)
        #expect(error.localizedDescription == "Notifications are not allowed for this app.")
    }

    @Test func carriesTheSpecificMessageItWasGiven() {
        let error: any Error = UNError(.attachmentInvalidURL, description: "There is no attachment file at /nowhere.png.")
        #expect(error.localizedDescription == "There is no attachment file at /nowhere.png.")
        #expect((error as NSError).userInfo[NSLocalizedDescriptionKey] as? String == "There is no attachment file at /nowhere.png.")
    }

    @Test func keepsUserInfoPassedByTheApp() {
        let error = UNError(.badgeInputInvalid, userInfo: ["badge": -1])
        #expect(error.errorUserInfo["badge"] as? Int == -1)
        #expect(error.code == .badgeInputInvalid)
    }

    @Test func catchClausesMatchByCode() {
        func fail() throws { throw UNError(.attachmentInvalidFileSize) }
        var caught = ""
        do {
            try fail()
        } catch UNError.attachmentCorrupt {
            caught = "corrupt"
        } catch UNError.attachmentInvalidFileSize {
            caught = "size"
        } catch {
            caught = "other"
        }
        #expect(caught == "size")
    }

    @Test func equalityComparesCodeAndMessage() {
        #expect(UNError(.attachmentCorrupt) == UNError(.attachmentCorrupt))
        #expect(UNError(.attachmentCorrupt) != UNError(.attachmentInvalidURL))
        #expect(UNError(.attachmentCorrupt, description: "a") != UNError(.attachmentCorrupt, description: "b"))
    }
}

@Suite("Linux-only errors say what to fix")
struct LinuxErrorTests {
    @Test func triggerErrorsNameTheBadValue() {
        #expect(NotificationTriggerError.timeIntervalNotPositive(0).localizedDescription.contains("greater than 0"))
        #expect(NotificationTriggerError.repeatingTimeIntervalBelowMinimum(30).localizedDescription.contains("30.0"))
        #expect(NotificationTriggerError.locationRegionNotCircular.localizedDescription.contains("CLCircularRegion"))
        #expect(NotificationTriggerError.locationRadiusInvalid(-3).localizedDescription.contains("-3.0"))
    }

    @Test func userInfoErrorsNameTheKeyPath() {
        let error = UserInfoStorageError.valueNotStorable(keyPath: "userInfo.items[2]", typeName: "NSObject")
        #expect(error.localizedDescription.contains("userInfo.items[2]"))
        #expect(error.localizedDescription.contains("NSObject"))
    }
}
