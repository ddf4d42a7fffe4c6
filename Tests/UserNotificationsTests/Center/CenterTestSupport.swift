import Foundation
import FreedesktopNotifications
@testable import UserNotifications
import UserNotificationsTesting

/// A delegate that records what it is told and answers `willPresent` with `options`.
@MainActor
final class RecordingDelegate: NSObject, UNUserNotificationCenterDelegate {
    var options: UNNotificationPresentationOptions = [.banner, .list, .sound]
    private(set) var presented: [UNNotification] = []
    private let responseStream: AsyncStream<UNNotificationResponse>
    private let responseContinuation: AsyncStream<UNNotificationResponse>.Continuation
    nonisolated let responses: EventRecorder<UNNotificationResponse>

    override init() {
        (responseStream, responseContinuation) = AsyncStream.makeStream(of: UNNotificationResponse.self)
        responses = EventRecorder(responseStream)
        super.init()
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        presented.append(notification)
        return options
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        responseContinuation.yield(response)
    }
}

/// A private bus, a fake server and a center on them, with state in a fresh folder.
struct CenterFixture {
    let testBus: TestBus
    let server: FakeNotificationServer
    let center: UNUserNotificationCenter
    let delegate: RecordingDelegate
    let clock: TestNotificationClock
    let stateHome: URL
    /// Removes the state folder when the last copy of the fixture goes.
    private let scratch: ScratchFolder

    static let identity = ApplicationIdentity(id: "org.example.CenterTests", displayName: "Center Tests", icon: "dialog-information")

    /// - Parameter responseDeadline: the center's deadline for `didReceive`.
    init(
        personality: ServerPersonality = .kde, script: FakeNotificationServer.Script = .init(), persistent: Bool = false,
        responseDeadline: Duration = UNUserNotificationCenter.responseDeadline
    ) async throws {
        testBus = try await TestBus()
        server = try await FakeNotificationServer.start(on: testBus.bus, personality: personality, script: script)
        clock = TestNotificationClock(now: Date(timeIntervalSince1970: 1_700_000_000))
        scratch = try ScratchFolder()
        stateHome = scratch.url
        center = Self.makeCenter(bus: testBus, clock: clock, persistent: persistent, stateHome: stateHome, responseDeadline: responseDeadline)
        delegate = await RecordingDelegate()
        center.delegate = delegate
    }

    static func makeCenter(
        bus: TestBus, clock: TestNotificationClock, persistent: Bool, stateHome: URL,
        responseDeadline: Duration = UNUserNotificationCenter.responseDeadline
    ) -> UNUserNotificationCenter {
        UNUserNotificationCenter(
            identity: identity, bus: .address(bus.address), clock: clock, persistent: persistent,
            stateDirectory: stateHome, locationBus: .system, responseDeadline: responseDeadline)
    }

    /// Posts a request with no trigger and returns the server id it got.
    @discardableResult
    func post(_ identifier: String, title: String = "Title", body: String = "Body", category: String = "") async throws -> UInt32 {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        content.categoryIdentifier = category
        content.sound = .default
        try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
        return try requireID(server.notifications.last?.id)
    }
}

struct MissingID: Error {}

func requireID(_ id: UInt32?) throws -> UInt32 {
    guard let id else { throw MissingID() }
    return id
}


extension UNUserNotificationCenter {
    /// The engine core, chosen or given (every engine but the agent's): tests look inside it.
    /// Kept in the test target, as nothing in the product needs it.
    var engineCore: EngineCore? {
        (engine as? EngineCore) ?? ((engine as? ChoosingEngine)?.adoptedEngine as? EngineCore)
    }
}
