/// The Exec key of a desktop entry split into arguments by the spec's quoting rules, with
/// its field codes found but not yet expanded (``expanded(with:)`` does that).
///
/// The rules (Desktop Entry Specification 1.5, "The Exec key"): arguments are separated by
/// spaces; an argument holding a reserved character (space, tab, newline, `"`, `'`, `\`, `>`,
/// `<`, `~`, `|`, `&`, `;`, `$`, `*`, `?`, `#`, `(`, `)`, `` ` ``) must be quoted whole in double
/// quotes, inside which `\"`, `` \` ``, `\$` and `\\` stand for the character; `%%` is a percent
/// sign and `%` with a letter a field code, expanded after the quoting is undone.
///
/// Divergences, towards entries found in the wild, where the meaning is plain: inside quotes
/// a backslash before another character, and an unescaped `$` or `` ` ``, are kept as
/// written (nothing here runs a shell, so they are literal either way).
package struct ExecCommandLine: Sendable, Hashable {
    /// A run of literal text or one field code.
    package enum Piece: Sendable, Hashable {
        case text(String)
        case fieldCode(ExecFieldCode)
    }

    /// One argument: its pieces in order. `""` is an argument with no pieces.
    package struct Argument: Sendable, Hashable {
        package var pieces: [Piece]
    }

    /// The arguments, the program first.
    package let arguments: [Argument]

    /// Parses `exec` (the Exec value with the string escapes already undone).
    ///
    /// - Parameter line: The line of the Exec key, for the errors.
    /// - Throws: ``DesktopEntryError`` for an empty command line, an unterminated quote, an
    ///   unquoted reserved character, text after a closing quote, a field code not in the
    ///   spec, `%F`/`%U`/`%i` inside a longer argument, or a program with `=` or a field code.
    package init(parsing exec: String, line: Int) throws(DesktopEntryError) {
        var arguments: [Argument] = []
        var rest = exec.unicodeScalars[...]
        while true {
            rest = rest.drop { $0 == " " }
            guard let first = rest.first else { break }
            let raw: String
            if first == "\"" {
                (raw, rest) = try Self.quoted(rest.dropFirst(), line: line)
            } else {
                (raw, rest) = try Self.unquoted(rest, line: line)
            }
            arguments.append(try Self.argument(raw, line: line))
        }
        guard let program = arguments.first else { throw .emptyExec(line: line) }
        let programText = program.pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .fieldCode(let code): "%\(code.rawValue)"
            }
        }.joined()
        guard program.pieces.allSatisfy({ if case .text = $0 { true } else { false } }), !programText.unicodeScalars.contains("="),
              !programText.isEmpty else {
            throw .invalidProgram(programText, line: line)
        }
        self.arguments = arguments
    }

    /// The rules are read scalar by scalar: a quote, backslash, space or reserved character
    /// followed by a combining mark is still that character (as every other reader of the
    /// spec sees it), not part of one `Character` with the mark.
    private static let reserved: Set<Unicode.Scalar> = [
        " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
    ]

    /// An argument without quotes, up to the next space.
    private static func unquoted(_ text: Substring.UnicodeScalarView, line: Int) throws(DesktopEntryError) -> (String, Substring.UnicodeScalarView) {
        let end = text.firstIndex(of: " ") ?? text.endIndex
        let argument = text[..<end]
        if let bad = argument.first(where: { reserved.contains($0) }) {
            throw .reservedCharacterUnquoted(Character(bad), line: line)
        }
        return (String(String.UnicodeScalarView(argument)), text[end...])
    }

    /// A quoted argument, from after its opening quote, with the quoting undone.
    private static func quoted(_ text: Substring.UnicodeScalarView, line: Int) throws(DesktopEntryError) -> (String, Substring.UnicodeScalarView) {
        var result = String.UnicodeScalarView()
        var index = text.startIndex
        while index < text.endIndex {
            let scalar = text[index]
            index = text.index(after: index)
            if scalar == "\"" {
                guard index == text.endIndex || text[index] == " " else { throw .textAfterClosingQuote(line: line) }
                return (String(result), text[index...])
            }
            if scalar == "\\", index < text.endIndex, "\"`$\\".unicodeScalars.contains(text[index]) {
                result.append(text[index])
                index = text.index(after: index)
            } else {
                result.append(scalar)
            }
        }
        throw .unterminatedQuote(line: line)
    }

    /// `raw` (quoting undone) cut into text and field codes.
    private static func argument(_ raw: String, line: Int) throws(DesktopEntryError) -> Argument {
        var pieces: [Piece] = []
        var text = String.UnicodeScalarView()
        var iterator = raw.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "%" else {
                text.append(scalar)
                continue
            }
            guard let letter = iterator.next() else { throw .invalidFieldCode("%", line: line) }
            if letter == "%" {
                text.append("%")
                continue
            }
            guard let code = ExecFieldCode(rawValue: Character(letter)) else { throw .invalidFieldCode("%\(letter)", line: line) }
            if !text.isEmpty { pieces.append(.text(String(text))) }
            text = String.UnicodeScalarView()
            pieces.append(.fieldCode(code))
        }
        if !text.isEmpty { pieces.append(.text(String(text))) }
        for case .fieldCode(let code) in pieces where code.expandsToSeveralArguments && pieces.count > 1 {
            throw .fieldCodeNotAlone("%\(code.rawValue)", line: line)
        }
        return Argument(pieces: pieces)
    }
}
