import Testing
@testable import UserNotifications

@Suite("The agent engine's ledger of responses told")
struct AgentResponseLedgerTests {
    func entry(_ id: String) -> AgentResponseEntry { AgentResponseEntry(id: id, record: [:]) }

    @Test("a response given as a signal and again in TakeResponses is told once")
    func once() {
        var ledger = AgentResponseLedger()
        #expect(ledger.received(entry("a")).map(\.id) == ["a"])
        ledger.takeStarted()
        #expect(ledger.takeEnded(with: [entry("a"), entry("b")]).map(\.id) == ["b"])
        #expect(ledger.received(entry("b")).isEmpty)
    }

    @Test("signals while a take is on the wire wait for its answer, whose older responses go first")
    func order() {
        var ledger = AgentResponseLedger()
        ledger.takeStarted()
        #expect(ledger.received(entry("new")).isEmpty)
        #expect(ledger.takeEnded(with: [entry("old"), entry("new")]).map(\.id) == ["old", "new"])
    }

    @Test("a failed take lets the held signals through")
    func failedTake() {
        var ledger = AgentResponseLedger()
        ledger.takeStarted()
        ledger.takeStarted()
        #expect(ledger.received(entry("x")).isEmpty)
        #expect(ledger.takeEnded(with: []).isEmpty)
        #expect(ledger.takeEnded(with: []).map(\.id) == ["x"])
    }

    @Test("memory is bounded: the oldest ids are forgotten first")
    func bounded() {
        var ledger = AgentResponseLedger()
        for index in 0...AgentResponseLedger.memory { _ = ledger.received(entry("\(index)")) }
        #expect(ledger.received(entry("0")).map(\.id) == ["0"])
        #expect(ledger.received(entry("\(AgentResponseLedger.memory)")).isEmpty)
    }
}
