import Foundation
import Testing
@testable import UserNotifications

@Suite("Engine choice: a sandbox means the portal")
struct SandboxChoiceTests {
    @Test("a sandbox info file, or $SNAP, chooses the portal; an explicit choice wins")
    func sandbox() throws {
        let info = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-info-\(UUID().uuidString)")
        try Data("[Application]\nname=org.example.App\n".utf8).write(to: info)
        defer { try? FileManager.default.removeItem(at: info) }
        let absent = info.path + ".absent"
        #expect(EngineChoice.requested(nil, environment: [:], flatpakInfo: info.path) == .portal)
        #expect(EngineChoice.requested(nil, environment: [:], flatpakInfo: absent) == nil)
        #expect(EngineChoice.requested(nil, environment: ["SNAP": "/snap/app/1"], flatpakInfo: absent) == .portal)
        #expect(EngineChoice.requested(.inProcess, environment: [:], flatpakInfo: info.path) == .inProcess)
        #expect(EngineChoice.requested(nil, environment: ["DESKTOPNOTIFICATIONS_ENGINE": "portal"], flatpakInfo: absent) == .portal)
        // The variable that once pointed the check at another file is not read any more.
        #expect(EngineChoice.requested(nil, environment: ["DESKTOPNOTIFICATIONS_SANDBOX_INFO": info.path], flatpakInfo: absent) == nil)
    }
}
