import Testing
@testable import NotifyCLI

@Suite("notify's own output: what reaches a terminal")
struct TerminalOutputTests {
    @Test("standard error keeps line breaks and makes every other control character visible")
    func standardErrorIsNeutralised() {
        let peerMessage = "Could not close notification 3: org.example.Error: gone\u{1B}]0;owned\u{07}\u{1B}[2J\n"
        #expect(Terminal.visible(peerMessage) == "Could not close notification 3: org.example.Error: gone^[]0;owned^G^[[2J\n")
        #expect(Terminal.visible("tab\there\r\nnext\u{202E}") == "tab here\nnext<U+202E>")
    }
}
