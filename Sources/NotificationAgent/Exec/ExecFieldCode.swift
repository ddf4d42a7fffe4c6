/// A field code of the Exec key (`%` and a letter), by the Desktop Entry Specification 1.5.
/// Any letter not listed here makes the command line invalid.
package enum ExecFieldCode: Character, Sendable, Hashable, CaseIterable {
    /// `%f`: one file name.
    case file = "f"
    /// `%F`: every file name, one argument each.
    case files = "F"
    /// `%u`: one URL.
    case url = "u"
    /// `%U`: every URL, one argument each.
    case urls = "U"
    /// `%i`: `--icon` and the Icon key, two arguments, or nothing without an icon.
    case icon = "i"
    /// `%c`: the Name key.
    case name = "c"
    /// `%k`: the desktop entry's own location.
    case location = "k"
    /// `%d`, deprecated: removed.
    case directory = "d"
    /// `%D`, deprecated: removed.
    case directories = "D"
    /// `%n`, deprecated: removed.
    case fileName = "n"
    /// `%N`, deprecated: removed.
    case fileNames = "N"
    /// `%v`, deprecated: removed.
    case device = "v"
    /// `%m`, deprecated: removed.
    case miniIcon = "m"

    /// Whether the code expands to any number of arguments, so must be an argument alone.
    package var expandsToSeveralArguments: Bool {
        self == .files || self == .urls || self == .icon
    }
}
