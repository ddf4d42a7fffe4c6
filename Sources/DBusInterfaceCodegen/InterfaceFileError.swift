/// What is wrong with an interface file, and where: the generator prints it as
/// `file:line: error: message`, the form a build log and an editor point at, and fails.
package struct InterfaceFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, as it was named to the generator.
    package let file: String
    /// The line (from 1) the problem is on.
    package let line: Int
    /// What is wrong.
    package let message: String

    /// An error in `file` at `line`.
    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: error: message`.
    package var description: String { "\(file):\(line): error: \(message)" }
}
