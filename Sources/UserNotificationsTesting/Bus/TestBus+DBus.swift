public import DBus

extension TestBus {
    /// The bus, ready to pass to a `DBusConnection` (module `DBus`) or a notifications client.
    public var bus: DBusBus { .address(address) }
}
