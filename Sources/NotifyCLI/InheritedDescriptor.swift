import Foundation

/// A file descriptor `notify` inherited to write an answer to: notify-send's `--id-fd`,
/// `--selected-action-fd` and `--activation-token-fd`.
///
/// A script opens it (a pipe, a file) and passes its number; `notify` writes one line to it:
/// the id once the server gave it, the chosen action's name, or the activation token. As in
/// notify-send, a negative number means none. Unlike notify-send, which writes blindly, a
/// number that names no open descriptor is refused before anything is shown, and a write that
/// fails is said on standard error and makes the exit status 1.
struct InheritedDescriptor: Sendable, Equatable {
    /// The descriptor's number.
    let number: Int32
    /// The option that named it, for messages: `--id-fd`.
    let option: String

    /// The descriptor `number` names, `nil` for a negative number (none); throws a message
    /// for a number that names no open descriptor.
    static func checked(_ number: Int32?, option: String) throws(InheritedDescriptorError) -> InheritedDescriptor? {
        guard let number, number >= 0 else { return nil }
        guard fcntl(number, F_GETFD) != -1 else {
            throw InheritedDescriptorError(message: "\(option): \(number) is not an open file descriptor.")
        }
        return InheritedDescriptor(number: number, option: option)
    }

    /// Writes `line` and a line break, then asks for it to reach the disk (as notify-send does;
    /// a pipe cannot, which is no failure). Returns whether every byte was written; when not,
    /// says so on standard error.
    @discardableResult
    func write(line: String) -> Bool {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(number, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = written < 0 ? String(cString: strerror(errno)) : "nothing was written"
                Terminal.error("\(option): cannot write to file descriptor \(number): \(reason)\n")
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        _ = fsync(number)
        return true
    }
}

/// A descriptor option named a number that is not an open file descriptor.
struct InheritedDescriptorError: Error, CustomStringConvertible {
    /// What to print.
    let message: String
    var description: String { message }
}
