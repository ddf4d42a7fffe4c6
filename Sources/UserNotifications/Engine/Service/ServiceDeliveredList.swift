import DesktopNotificationsSupport
import Foundation

/// A ``ServiceEngine``'s delivered list: its records by identifier, with their dates in a
/// ``DeadlineHeap``, so that the oldest is found without a scan. The list is bounded
/// (``ServiceEngine/maximumDelivered``), and an app that never withdraws meets the bound at every
/// delivery: a scan there would pass over every record at each one.
///
/// Of two records of the same date, the one recorded first is the older.
struct ServiceDeliveredList: Sendable {
    private var records: [String: ServiceDelivered] = [:]
    private var byDate = DeadlineHeap<String, Date>()

    /// The record of `identifier`, if it is listed.
    subscript(identifier: String) -> ServiceDelivered? { records[identifier] }

    var count: Int { records.count }
    var isEmpty: Bool { records.isEmpty }
    /// The records, in no order.
    var all: Dictionary<String, ServiceDelivered>.Values { records.values }
    /// The identifiers listed, in no order.
    var identifiers: [String] { Array(records.keys) }

    /// Lists `record`, in place of the record of its identifier if there is one (returned).
    @discardableResult
    mutating func record(_ record: ServiceDelivered) -> ServiceDelivered? {
        byDate.insert(record.identifier, at: record.notification.date)
        return records.updateValue(record, forKey: record.identifier)
    }

    /// Takes `identifier` off the list; its record, or `nil` when it was not listed.
    @discardableResult
    mutating func remove(_ identifier: String) -> ServiceDelivered? {
        byDate.remove(identifier)
        return records.removeValue(forKey: identifier)
    }

    /// Takes the oldest records off the list until it holds at most `limit`; those records,
    /// oldest first.
    mutating func trim(to limit: Int) -> [ServiceDelivered] {
        var dropped: [ServiceDelivered] = []
        while records.count > limit, let oldest = byDate.first?.key, let record = remove(oldest) {
            dropped.append(record)
        }
        return dropped
    }
}
