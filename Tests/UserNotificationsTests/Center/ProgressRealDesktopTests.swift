import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// The content's progress (a Linux addition) on a real server that draws it: dunst under
/// Xvfb, read back through `dunstctl history`.
@Suite("Progress on dunst: the bar dunst keeps is the last value posted")
struct ProgressRealDesktopTests {
    @Test("a burst of progress updates under one identifier is one notification at the last value; none is -1")
    func dunstBar() async throws {
        try await DunstDesktop.run { desktop in
            let center = UNUserNotificationCenter(
                identity: ApplicationIdentity(id: "org.example.ProgressTests", displayName: "Progress Tests"),
                bus: .address(desktop.testBus.address), persistent: false)
            for step in 0...200 {
                try await center.add(ProgressTests.request("copy", progress: Double(step) / 250))
            }
            try await center.add(ProgressTests.request("plain", progress: nil, body: "No bar"))
            #expect(await eventually { await center.deliveredNotifications().count == 2 })
            // The held update (the last) reaches dunst at the end of its 100 ms.
            try await Task.sleep(for: .milliseconds(500))
            try await desktop.dunst.closeAll()
            let history = try await desktop.dunst.history()
            #expect(history.filter { $0.body == "Copying" }.map(\.progress) == [80])
            #expect(history.filter { $0.body == "No bar" }.map(\.progress) == [-1])
        }
    }
}
