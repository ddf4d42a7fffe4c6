import FreedesktopNotifications
import Testing

@Suite("Terminal text: control characters from outside are printed visibly, never obeyed")
struct TerminalTextTests {
    @Test("C0 controls and DEL in caret notation, C1 and bidirectional formatting characters as <U+XXXX>")
    func neutralized() {
        #expect(TerminalText.neutralized("a\u{1B}[2Jb") == "a^[[2Jb")
        #expect(TerminalText.neutralized("\u{00}\u{07}\u{08}\t\r\n\u{1F}\u{7F}") == "^@^G^H^I^M^J^_^?")
        #expect(TerminalText.neutralized("\u{80}\u{9B}31m\u{9F}") == "<U+0080><U+009B>31m<U+009F>")
        #expect(TerminalText.neutralized("\u{202E}gpj.exe\u{2066}\u{2069}\u{200F}\u{061C}") == "<U+202E>gpj.exe<U+2066><U+2069><U+200F><U+061C>")
    }

    @Test("printable text, accents, emoji and other scripts pass unchanged")
    func printable() {
        let text = "Café ☕️ — 日本語 עברית 👩‍👩‍👧 ^[ <U+0041>"
        #expect(TerminalText.neutralized(text) == text)
    }

    @Test("lines(of:) splits at every kind of line break and shows tabs as spaces")
    func lines() {
        #expect(TerminalText.lines(of: "a\nb\r\nc\rd\u{2028}e\u{85}f") == ["a", "b", "c", "d", "e", "f"])
        #expect(TerminalText.lines(of: "\tx\u{1B}[1A\n\n") == [" x^[[1A", "", ""])
    }

    @Test("singleLine keeps tab-separated output to one field on one line")
    func singleLine() {
        #expect(TerminalText.singleLine("Build\tdone\r\nall \u{1B}]0;t\u{07}green") == "Build done all ^[]0;t^Ggreen")
    }
}
