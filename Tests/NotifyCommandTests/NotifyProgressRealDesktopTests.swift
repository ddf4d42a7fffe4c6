import Foundation
import Testing
import UserNotificationsTesting

/// `notify --progress` on dunst, which draws the `value` hint as a bar.
@Suite("notify --progress on dunst")
struct NotifyProgressRealDesktopTests {
    @Test("--progress 40 then 85 under one --id: one notification, its bar at 85; 101 is refused")
    func progressInPlace() async throws {
        try await DunstDesktop.run { desktop in
            let first = try await NotifyCommandTests.run(["--id", "backup", "--progress", "40", "Backup"], bus: desktop.testBus)
            #expect(first.status == .exited(0), "\(first.standardError)")
            let second = try await NotifyCommandTests.run(["--id", "backup", "--progress", "85", "Backup"], bus: desktop.testBus)
            #expect(second.status == .exited(0), "\(second.standardError)")
            let refused = try await NotifyCommandTests.run(["--progress", "101", "Too far"], bus: desktop.testBus)
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("--progress takes a percentage from 0 to 100"))
            try await desktop.dunst.closeAll()
            let history = try await desktop.dunst.history()
            #expect(history.map(\.summary) == ["Backup"])
            #expect(history.map(\.progress) == [85])
        }
    }
}

/// `notify info` on dunst reads its pause switch.
@Suite("notify info on dunst: Do Not Disturb")
struct NotifyInfoRealDesktopTests {
    @Test("notify info says off, then on after dunstctl set-paused true, in lines and in JSON")
    func doNotDisturb() async throws {
        try await DunstDesktop.run { desktop in
            let off = try await NotifyCommandTests.run(["info"], bus: desktop.testBus)
            #expect(off.status == .exited(0), "\(off.standardError)")
            #expect(off.standardOutput.contains("do not disturb: off (dunstPaused)\n"))
            try await desktop.dunst.dunstctl(["set-paused", "true"])
            let on = try await NotifyCommandTests.run(["info", "--json"], bus: desktop.testBus)
            #expect(on.standardOutput.contains(#""doNotDisturb":"on","doNotDisturbSource":"dunstPaused""#), "\(on.standardOutput)")
        }
    }
}
