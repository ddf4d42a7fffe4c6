import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// The fake server's personalities checked against the real servers they play: the same
/// scripted scenario (``PersonalityScenario``) runs against the real server and against
/// ``FakeNotificationServer`` with the matching personality, and every field the client
/// observed must agree. A difference fails the test and names the field.
@Suite("Personality check: the fake server's personalities against the real servers")
struct PersonalityCheckTests {
    /// The scenario against the fake server playing `personality`, on a bus of its own.
    static func fakeObservations(_ personality: ServerPersonality) async throws -> PersonalityScenario.Observations {
        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: personality)
        let observed: PersonalityScenario.Observations
        do {
            observed = try await PersonalityScenario.observe(bus: testBus.bus, person: .fake(server), signalWait: .seconds(2))
        } catch {
            await server.stop()
            await testBus.stop()
            throw error
        }
        await server.stop()
        await testBus.stop()
        return observed
    }

    @Test("headless GNOME Shell 43 and the gnome43 personality observe the same, field by field")
    func gnome() async throws {
        var real: PersonalityScenario.Observations = [:]
        try await GnomeDesktop.run { desktop in
            let shell = desktop.shell
            let person = ScenarioPerson(
                invoke: { id, key, actions in
                    if key == NotificationAction.defaultKey {
                        try await shell.activate(id: id)
                    } else {
                        try await shell.invokeAction(id: id, label: try #require(actions.first { $0.key == key }).label)
                    }
                },
                dismiss: { id in try await shell.dismiss(id: id) })
            real = try await PersonalityScenario.observe(bus: desktop.testBus.bus, person: person)
        }
        let fake = try await Self.fakeObservations(.gnome43)
        #expect(PersonalityScenario.differences(real, fake) == [], "real GNOME Shell: \(real)")
        // Signals reach only the poster (the shell's own broadcast copy comes from a name that
        // does not own org.freedesktop.Notifications, which the client ignores).
        #expect(real["close.live.bystander"] == "nothing")
        #expect(real["replace.unknown.id"] == "new")
    }

    @Test("xfce4-notifyd under Xvfb and the xfce personality observe the same, field by field")
    func xfce() async throws {
        var real: PersonalityScenario.Observations = [:]
        try await XfceDesktop.run { desktop in
            let xfce = desktop.xfce
            let person = ScenarioPerson(
                invoke: { _, key, actions in
                    let window = try #require(try await xfce.waitForWindows(count: 1).first)
                    try await xfce.clickButton(for: key, among: actions, in: window)
                },
                dismiss: { _ in
                    let window = try #require(try await xfce.waitForWindows(count: 1).first)
                    try await xfce.clickBody(of: window)
                })
            real = try await PersonalityScenario.observe(bus: desktop.testBus.bus, person: person)
        }
        let fake = try await Self.fakeObservations(.xfce)
        #expect(PersonalityScenario.differences(real, fake) == [], "real xfce4-notifyd: \(real)")
        // What the scenario saw, as the field notes record it.
        #expect(real["action.bystander"] == "action(it, ok), closed(it, 2)")
        #expect(real["replace.unknown.id"] == "requested")
    }

    @Test("mako on a headless sway and the mako personality observe the same, field by field")
    func mako() async throws {
        var real: PersonalityScenario.Observations = [:]
        try await MakoDesktop.run { desktop in
            let mako = desktop.mako
            let person = ScenarioPerson(
                invoke: { id, key, _ in try await mako.invoke(id: id, action: key) },
                dismiss: { id in try await mako.dismiss(id: id) })
            real = try await PersonalityScenario.observe(bus: desktop.testBus.bus, person: person)
        }
        let fake = try await Self.fakeObservations(.mako)
        #expect(PersonalityScenario.differences(real, fake) == [], "real mako: \(real)")
        #expect(real["action.bystander"] == "action(it, ok)")
        #expect(real["replace.unknown.id"] == "new")
    }

    @Test("Plasma 5.27 headless and the plasma5 personality observe the same, field by field (no clicks: protocol only)")
    func plasma() async throws {
        var real: PersonalityScenario.Observations = [:]
        try await PlasmaDesktop.run { desktop in
            real = try await PersonalityScenario.observe(bus: desktop.testBus.bus, person: nil)
        }
        let testBus = try await TestBus()
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .plasma5)
        let fake = try await PersonalityScenario.observe(bus: testBus.bus, person: nil, signalWait: .seconds(2))
        await server.stop()
        await testBus.stop()
        #expect(PersonalityScenario.differences(real, fake) == [], "real Plasma: \(real)")
        #expect(real["close.unknown.bystander"] == "closed(it, 3)")
        #expect(real["replace.unknown.id"] == "requested")
    }

    @Test("two personalities that differ are told apart, and the difference names its fields")
    func differencesNameFields() async throws {
        let kde = try await Self.fakeObservations(.kde)
        let gnome = try await Self.fakeObservations(.gnome)
        let differences = PersonalityScenario.differences(kde, gnome)
        let fields = differences.compactMap { $0.split(separator: ":").first.map(String.init) }
        #expect(fields.contains("capabilities"))
        #expect(fields.contains("information"))
        // KDE broadcasts, GNOME answers only the poster; KDE takes an unknown replaces_id.
        #expect(fields.contains("close.live.bystander"))
        #expect(fields.contains("replace.unknown.id"))
        #expect(!fields.contains("close.live.poster"))
        #expect(differences.contains("close.live.bystander: real closed(it, 3), fake nothing"))
    }
}
