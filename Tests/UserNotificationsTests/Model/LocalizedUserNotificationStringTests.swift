import Foundation
import Testing
@testable import UserNotifications

@Suite("localizedUserNotificationString(forKey:arguments:)")
struct LocalizedUserNotificationStringTests {
    @Test func translatesAndFormatsFromTheBundle() throws {
        let (directory, bundle) = try bundle(strings: #""greeting" = "Hello %@, you have %d messages";"#)
        _ = directory
        let text = LocalizedUserNotificationString.make(forKey: "greeting", arguments: ["Ana", 3], bundle: bundle)
        #expect(text == "Hello Ana, you have 3 messages")
    }

    @Test func withoutArgumentsTheTextIsReturnedAsFound() throws {
        let (directory, bundle) = try bundle(strings: #""progress" = "100% done";"#)
        _ = directory
        #expect(LocalizedUserNotificationString.make(forKey: "progress", arguments: nil, bundle: bundle) == "100% done")
        #expect(LocalizedUserNotificationString.make(forKey: "progress", arguments: [], bundle: bundle) == "100% done")
    }

    @Test func missingKeyFallsBackToTheKey() {
        #expect(NSString.localizedUserNotificationString(forKey: "your_key", arguments: nil) == "your_key")
        #expect(String.localizedUserNotificationString(forKey: "Hi %@", arguments: ["you"]) == "Hi you")
    }

    @Test func argumentsThatAreNotFormattableAreDescribed() throws {
        let (directory, bundle) = try bundle(strings: #""saw" = "Saw %@";"#)
        _ = directory
        struct Point { let x: Int }
        #expect(LocalizedUserNotificationString.make(forKey: "saw", arguments: [Point(x: 1)], bundle: bundle) == "Saw Point(x: 1)")
    }

    /// A bundle with an English `Localizable.strings`; the directory must outlive the bundle's use.
    private func bundle(strings: String) throws -> (TemporaryDirectory, Bundle) {
        let directory = try TemporaryDirectory()
        let localization = directory.url.appendingPathComponent("en.lproj")
        try FileManager.default.createDirectory(at: localization, withIntermediateDirectories: true)
        try strings.write(to: localization.appendingPathComponent("Localizable.strings"), atomically: true, encoding: .utf8)
        return (directory, try #require(Bundle(url: directory.url)))
    }
}
