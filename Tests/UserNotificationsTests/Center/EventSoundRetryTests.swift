import Foundation
import Synchronization
import Testing
@testable import UserNotifications
import UserNotificationsTesting

/// What the scripted libcanberra below has been asked, and what its plays answer next.
private struct ScriptedCanberra {
    var created = 0
    var destroyed = 0
    var plays = 0
    /// The answers of the next plays, in order; 0 (success) once they run out.
    var answers: [Int32] = []
}

private let scripted = Mutex(ScriptedCanberra())

/// `CA_ERROR_STATE`: what a context whose sound server went away answers.
private let stateError: Int32 = -3
/// `CA_ERROR_NOTAVAILABLE`: no sound server to connect to.
private let notAvailable: Int32 = -12

/// A libcanberra whose plays answer what `scripted.answers` says, counting the contexts made
/// and destroyed: the player's retry rule, shown without a sound server's timing.
private let scriptedLibrary = CanberraLibrary(
    contextCreate: { context in
        let number = scripted.withLock { state in
            state.created += 1
            return state.created
        }
        context.pointee = OpaquePointer(bitPattern: 0x1000 * number)
        return 0
    },
    contextOpen: { _ in 0 },
    contextDestroy: { _ in
        scripted.withLock { $0.destroyed += 1 }
        return 0
    },
    proplistCreate: { properties in
        properties.pointee = OpaquePointer(bitPattern: 0x10)
        return 0
    },
    proplistSets: { _, _, _ in 0 },
    proplistDestroy: { _ in 0 },
    playFull: { _, _, _, _, _ in
        scripted.withLock { state in
            state.plays += 1
            return state.answers.isEmpty ? 0 : state.answers.removeFirst()
        }
    },
    stringError: { _ in nil })

@Suite("The sound player tries a new sound server connection only when the kept one failed", .serialized)
struct EventSoundRetryTests {
    init() {
        scripted.withLock { $0 = ScriptedCanberra() }
    }

    private static func play(_ player: EventSoundPlayer, _ identifier: String) async {
        player.play(.themed("message-new-instant"), appID: "org.example.Sound", identifier: identifier)
        await player.settle()
    }

    @Test("a kept connection that fails is dropped and the sound played on a new one, logged at debug only")
    func keptConnectionRetried() async {
        let log = LogRecorder()
        let player = EventSoundPlayer(library: scriptedLibrary, logger: log.logger(label: "test"), settings: { .unset })
        await Self.play(player, "first")
        scripted.withLock { $0.answers = [stateError] }
        await Self.play(player, "second")
        let state = scripted.withLock { $0 }
        #expect(state.created == 2 && state.destroyed == 1 && state.plays == 3)
        #expect(log.entries.map(\.level) == [.debug])
        #expect(log.entries.first?.metadata["identifier"]?.description == "second")
        #expect(log.entries.first?.metadata["error"] != nil)
    }

    @Test("a connection made for this sound that fails is not made again: one error, no second try")
    func newConnectionNotRetried() async {
        let log = LogRecorder()
        let player = EventSoundPlayer(library: scriptedLibrary, logger: log.logger(label: "test"), settings: { .unset })
        scripted.withLock { $0.answers = [notAvailable] }
        await Self.play(player, "only")
        let state = scripted.withLock { $0 }
        #expect(state.created == 1 && state.plays == 1 && state.destroyed == 1)
        #expect(log.entries.map(\.level) == [.error])
    }

    @Test("a sound the theme lacks is not retried on a new connection, whatever connection played it")
    func missingSoundNotRetried() async {
        let log = LogRecorder()
        let player = EventSoundPlayer(library: scriptedLibrary, logger: log.logger(label: "test"), settings: { .unset })
        await Self.play(player, "first")
        scripted.withLock { $0.answers = [CanberraLibrary.notFound] }
        await Self.play(player, "missing")
        let state = scripted.withLock { $0 }
        #expect(state.created == 1 && state.plays == 2 && state.destroyed == 0)
        #expect(log.entries.map(\.level) == [.error])
    }
}
