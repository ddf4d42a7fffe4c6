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
        let variable = SandboxCheck.infoFileVariable
        #expect(EngineChoice.requested(nil, environment: [variable: info.path]) == .portal)
        #expect(EngineChoice.requested(nil, environment: [variable: info.path + ".absent"]) == nil)
        #expect(EngineChoice.requested(nil, environment: [variable: info.path + ".absent", "SNAP": "/snap/app/1"]) == .portal)
        #expect(EngineChoice.requested(.inProcess, environment: [variable: info.path]) == .inProcess)
        #expect(EngineChoice.requested(nil, environment: [variable: info.path + ".absent", "DESKTOPNOTIFICATIONS_ENGINE": "portal"]) == .portal)
    }
}
