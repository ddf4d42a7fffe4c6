// Apple's `import UserNotifications` brings Foundation along, so code written for Apple names
// `URL`, `Date` and `DateComponents` without importing Foundation itself. Re-exporting keeps
// that code compiling here unchanged.
@_exported import Foundation
