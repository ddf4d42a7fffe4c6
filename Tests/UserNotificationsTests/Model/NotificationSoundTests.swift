import Foundation
import Testing
@testable import UserNotifications

@Suite("UNNotificationSound")
struct NotificationSoundTests {
    @Test func bothSpellingsOfTheDefaultSoundCompileAndAreEqual() {
        let today: UNNotificationSound = UNNotificationSound.default
        let in2016: UNNotificationSound = UNNotificationSound.default()
        #expect(today == in2016)
        #expect(today.isDefault && in2016.isDefault)
    }

    @Test func defaultCanBeWrittenAsAnImplicitMember() {
        let content = UNMutableNotificationContent()
        content.sound = .default
        #expect(content.sound?.isDefault == true)
        #expect(content.sound?.isCritical == false)
    }

    @Test func namedSoundKeepsItsName() {
        let sound = UNNotificationSound(named: UNNotificationSoundName("bell.oga"))
        #expect(sound.name == UNNotificationSoundName(rawValue: "bell.oga"))
        #expect(!sound.isDefault && !sound.isCritical && !sound.isRingtone)
    }

    @Test func soundNamesAcceptStringLiterals() {
        let name: UNNotificationSoundName = "message-new-email"
        #expect(name.rawValue == "message-new-email")
        #expect(UNNotificationSound(named: "message-new-email") == UNNotificationSound(named: name))
    }

    @Test func criticalSoundsKeepTheirVolumeWithinZeroToOne() {
        #expect(UNNotificationSound.defaultCritical.isCritical)
        #expect(UNNotificationSound.defaultCritical.audioVolume == nil)
        #expect(UNNotificationSound.defaultCriticalSound(withAudioVolume: 0.25).audioVolume == 0.25)
        #expect(UNNotificationSound.criticalSoundNamed("alarm", withAudioVolume: 7).audioVolume == 1)
        #expect(UNNotificationSound.criticalSoundNamed("alarm", withAudioVolume: -1).audioVolume == 0)
        #expect(UNNotificationSound.criticalSoundNamed("alarm").name == "alarm")
    }

    @Test func ringtonesAreTheirOwnKind() {
        #expect(UNNotificationSound.defaultRingtone.isRingtone && UNNotificationSound.defaultRingtone.isDefault)
        #expect(UNNotificationSound.ringtoneSoundNamed("ring").isRingtone)
        #expect(UNNotificationSound.ringtoneSoundNamed("ring") != UNNotificationSound(named: "ring"))
    }

    @Test func equalSoundsHashAlike() {
        let sounds: Set<UNNotificationSound> = [.default, .default(), UNNotificationSound(named: "a"), UNNotificationSound(named: "a")]
        #expect(sounds.count == 2)
    }

    @Test func survivesSecureCoding() throws {
        let sound = UNNotificationSound.criticalSoundNamed("alarm", withAudioVolume: 0.5)
        #expect(try secureCodingRoundTrip(sound) == sound)
    }
}
