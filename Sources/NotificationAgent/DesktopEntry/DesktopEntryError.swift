/// Why a desktop entry (or another file of the same key-file format, such as `.flatpak-info`)
/// or its `Exec` key cannot be used. Each case names the line, counted from 1, where the
/// parser stopped, so that the file's author can fix it.
package enum DesktopEntryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is larger than ``KeyFile/maximumFileSize`` bytes.
    case fileTooLarge(size: Int, limit: Int)
    /// A line is longer than ``KeyFile/maximumLineLength`` bytes.
    case lineTooLong(line: Int, length: Int, limit: Int)
    /// The file holds more than ``KeyFile/maximumKeyCount`` keys.
    case tooManyKeys(line: Int, limit: Int)
    /// A line holds a NUL byte, which no text file carries.
    case nulByte(line: Int)
    /// A line is not valid UTF-8.
    case invalidUTF8(line: Int)
    /// A `[` line without its closing `]`, or a group name with brackets or control characters.
    case malformedGroupHeader(line: Int)
    /// A group name appears twice.
    case duplicateGroup(String, line: Int)
    /// A key before the first group header.
    case keyOutsideGroup(line: Int)
    /// A line that is neither a comment, a group header nor `Key=Value`.
    case missingEqualsSign(line: Int)
    /// A key name with characters other than `A-Za-z0-9-`, or a malformed `[locale]` suffix.
    case invalidKey(String, line: Int)
    /// A key appears twice in one group.
    case duplicateKey(String, group: String, line: Int)
    /// A boolean other than `true` or `false`.
    case invalidBoolean(key: String, value: String, line: Int)
    /// The file has no `[Desktop Entry]` group.
    case missingDesktopEntryGroup

    // MARK: - The Exec key

    /// `Exec` names no program.
    case emptyExec(line: Int)
    /// A double quote opens an argument and none closes it.
    case unterminatedQuote(line: Int)
    /// A reserved character (space, quote, `\`, `$`, `;`, ...) outside a quoted argument.
    case reservedCharacterUnquoted(Character, line: Int)
    /// A closing quote followed by more text in the same argument: arguments are quoted whole.
    case textAfterClosingQuote(line: Int)
    /// A `%` followed by a letter the spec does not list, or by nothing.
    case invalidFieldCode(String, line: Int)
    /// `%F`, `%U` or `%i`, which expand to several arguments, inside a longer argument.
    case fieldCodeNotAlone(String, line: Int)
    /// The program (the first argument) holds a field code or an equals sign.
    case invalidProgram(String, line: Int)

    package var description: String {
        switch self {
        case .fileTooLarge(let size, let limit):
            "the file has \(size) bytes, more than the \(limit) a desktop entry may have"
        case .lineTooLong(let line, let length, let limit):
            "line \(line) has \(length) bytes, more than the \(limit) a line may have"
        case .tooManyKeys(let line, let limit):
            "line \(line): the file has more than \(limit) keys"
        case .nulByte(let line):
            "line \(line) holds a NUL byte"
        case .invalidUTF8(let line):
            "line \(line) is not valid UTF-8"
        case .malformedGroupHeader(let line):
            "line \(line): a group header is [Name], the name without brackets or control characters"
        case .duplicateGroup(let name, let line):
            "line \(line): the group [\(name)] appears a second time"
        case .keyOutsideGroup(let line):
            "line \(line): a key comes before the first group header"
        case .missingEqualsSign(let line):
            "line \(line) is neither a comment, a [group] header nor Key=Value"
        case .invalidKey(let key, let line):
            "line \(line): the key \(key.debugDescription) may hold only A-Z, a-z, 0-9 and -, then an optional [locale]"
        case .duplicateKey(let key, let group, let line):
            "line \(line): the key \(key) appears a second time in [\(group)]"
        case .invalidBoolean(let key, let value, let line):
            "line \(line): \(key) is \(value.debugDescription); a boolean is true or false"
        case .missingDesktopEntryGroup:
            "the file has no [Desktop Entry] group"
        case .emptyExec(let line):
            "line \(line): Exec names no program"
        case .unterminatedQuote(let line):
            "line \(line): a quoted argument of Exec has no closing double quote"
        case .reservedCharacterUnquoted(let character, let line):
            "line \(line): the character \(String(character).debugDescription) must be inside a double-quoted argument of Exec"
        case .textAfterClosingQuote(let line):
            "line \(line): an argument of Exec is quoted whole; put a space after the closing quote"
        case .invalidFieldCode(let code, let line):
            "line \(line): \(code.debugDescription) is not a field code of the spec; write %% for a percent sign"
        case .fieldCodeNotAlone(let code, let line):
            "line \(line): \(code) expands to several arguments and must be an argument on its own"
        case .invalidProgram(let program, let line):
            "line \(line): the program \(program.debugDescription) of Exec may hold neither a field code nor ="
        }
    }
}
