import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// A notification's sound on real desktops' servers, each on a private bus, with a private
/// PulseAudio server (a null sink) that every process plays on: dunst, mako and xfce4-notifyd
/// advertise no `sound` capability, so the center plays the sound itself (once); GNOME Shell
/// plays `sound-name` through its own libcanberra, so the center plays nothing and exactly one
/// stream is counted. Through GNOME's `org.gtk.Notifications` (the GNOME engine) the shell plays
/// nothing, so the center plays it. Four requests each: the default sound, a named one, none,
/// and a critical one; each test prints its row of the table.
@Suite("Sounds on real desktops: played once, by the server or by the center", .serialized)
struct SoundRealDesktopTests {
    /// The table's columns, in order.
    enum Variant: String, CaseIterable {
        case `default`, named, silent, critical

        var request: UNNotificationRequest {
            let content = UNMutableNotificationContent()
            content.title = "Sound \(rawValue)"
            content.body = "A notification with the \(rawValue) sound"
            switch self {
            case .default: content.sound = .default
            case .named: content.sound = UNNotificationSound(named: UNNotificationSoundName("complete"))
            case .silent: content.sound = nil
            case .critical:
                content.sound = .defaultCritical
                content.interruptionLevel = .critical
            }
            return UNNotificationRequest(identifier: "sound-\(rawValue)", content: content, trigger: nil)
        }

        var plays: Bool { self != .silent }
    }

    static let identity = ApplicationIdentity(id: "org.example.SoundRealDesktopTests", displayName: "Sound Tests")

    @Test("each sound plays exactly once, none for a silent request", arguments: SoundDesktop.allCases)
    func table(desktop: SoundDesktop) async throws {
        var row: [Variant: Int] = [:]
        try await PulseAudioEnvironment.run { (pulse: PulseAudioServer) async throws in
            // GNOME Shell plays a notification's sound when it shows its banner, one banner at a
            // time; in a headless shell only the first notification of a session played (the
            // later banners never showed, even with the first dismissed): each request gets a
            // shell of its own there.
            let sessions = desktop.isGnome ? Variant.allCases.map { [$0] } : [Variant.allCases]
            for variants in sessions {
                try await desktop.run { bus, shown in
                    let center = UNUserNotificationCenter(
                        identity: Self.identity, bus: .address(bus.address), persistent: false,
                        engine: desktop == .gnomeEngine ? .gnome : nil)
                    for (index, variant) in variants.enumerated() {
                        let before = pulse.streamsStarted
                        try await center.add(variant.request)
                        try await shown(index + 1, variant.request.content.title)
                        if variant.plays { _ = try? await pulse.waitForStreams(count: before + 1) }
                        // A second stream (the server's and ours) would start within this.
                        await EventSoundPlayer.shared.settle()
                        try await Task.sleep(for: .seconds(2))
                        row[variant] = pulse.streamsStarted - before
                    }
                }
            }
        }
        let cells = Variant.allCases.map { variant in
            let count = row[variant] ?? 0
            return count == 0 ? "not played" : count == 1 ? "played" : "played \(count)x"
        }
        print("sound table | server | default | named | silent | critical |")
        print("sound table | \(desktop.rawValue) | " + cells.joined(separator: " | ") + " |")
        for variant in Variant.allCases {
            #expect(row[variant] == (variant.plays ? 1 : 0), "\(desktop.rawValue), \(variant.rawValue)")
        }
    }
}

/// The desktops of the sound table.
enum SoundDesktop: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case dunst, mako, xfce, gnome
    /// GNOME Shell through `org.gtk.Notifications` (the GNOME engine).
    case gnomeEngine

    var testDescription: String { rawValue }

    var isGnome: Bool { self == .gnome || self == .gnomeEngine }

    /// Starts the desktop (inheriting this process's `PULSE_SERVER`), runs `body` with its bus
    /// and a wait until the server has been given `count` notifications, the last one titled
    /// `title`, and stops it by PID.
    func run(
        _ body: (TestBus, _ shown: @escaping (_ count: Int, _ title: String) async throws -> Void) async throws -> Void
    ) async throws {
        switch self {
        case .dunst:
            try await DunstDesktop.run { desktop in
                try await body(desktop.testBus) { count, _ in
                    try await waitUntil(count, "dunst received") {
                        try await desktop.dunst.count(.waiting) + desktop.dunst.count(.displayed) + desktop.dunst.count(.history)
                    }
                }
            }
        case .mako:
            try await MakoDesktop.run { desktop in
                try await body(desktop.testBus) { count, _ in _ = try await desktop.mako.waitForList(count: count) }
            }
        case .xfce:
            try await XfceDesktop.run { desktop in
                try await body(desktop.testBus) { count, _ in _ = try await desktop.xfce.waitForWindows(count: count) }
            }
        case .gnome:
            try await GnomeDesktop.run { desktop in
                try await body(desktop.testBus) { count, title in
                    try await waitUntil(1, "titled \(title) on GNOME Shell") {
                        try await desktop.shell.list().count { $0.title == title }
                    }
                }
            }
        case .gnomeEngine:
            let appID = SoundRealDesktopTests.identity.id
            let entry = "[Desktop Entry]\nType=Application\nName=Sound Tests\nExec=/bin/true\n"
            try await GnomeDesktop.run(applications: ["\(appID).desktop": entry]) { desktop in
                try await body(desktop.testBus) { count, title in
                    _ = try await desktop.shell.waitForGtkList(appID: appID, count: count) { $0.last?.title == title }
                }
            }
        }
    }
}

/// Waits until `probe` counts at least `count`, at most 15 s.
private func waitUntil(_ count: Int, _ what: String, _ probe: () async throws -> Int) async throws {
    let deadline = ContinuousClock.now + .seconds(15)
    while true {
        let now = try await probe()
        if now >= count { return }
        guard ContinuousClock.now < deadline else {
            throw HarnessError.timedOut(operation: "\(count) notifications \(what)", after: .seconds(15), detail: "\(now) so far")
        }
        try await Task.sleep(for: .milliseconds(100))
    }
}
