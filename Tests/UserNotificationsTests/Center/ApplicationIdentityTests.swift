import Foundation
@testable import UserNotifications
import Testing

@Suite("Application identity")
struct ApplicationIdentityTests {
    @Test("ids that could leave $XDG_STATE_HOME or are no desktop-entry id are refused, naming the id",
          arguments: ["", ".", "..", "../up", "a/b", ".hidden", "trailing.", "a..b", "with space", "tab\there", "é.app",
                      String(repeating: "a", count: ApplicationIdentity.maximumIDLength + 1)])
    func invalidIDs(_ id: String) {
        #expect(throws: InvalidApplicationIdentifierError.self) { try ApplicationIdentity.validate(id: id) }
        do {
            _ = try ApplicationIdentity(id: id, displayName: "App").stateDirectory
            Issue.record("\(id.debugDescription) gave a state folder")
        } catch {
            #expect(error.id == id)
            #expect(error.localizedDescription.contains(id.debugDescription))
        }
    }

    @Test("reverse-DNS and plain executable names are accepted, under $XDG_STATE_HOME",
          arguments: ["org.example.App", "notify", "my-app_2", "DesktopNotificationsPackageTests.xctest",
                      String(repeating: "a", count: ApplicationIdentity.maximumIDLength)])
    func validIDs(_ id: String) throws {
        let folder = try ApplicationIdentity(id: id, displayName: "App").stateDirectory
        #expect(folder.lastPathComponent == id)
        #expect(folder.deletingLastPathComponent().standardizedFileURL.path == ApplicationIdentity.stateHome.standardizedFileURL.path)
    }
}
