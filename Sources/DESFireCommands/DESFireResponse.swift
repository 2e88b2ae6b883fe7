import APDU

/// A wrapped DESFire answer: data, then `91 status` (MF3ICD40 "ISO 7816-4 APDU wrapping").
public struct DESFireResponse: Hashable, Sendable {
    /// The data before the status: one frame's (``DESFireSession`` joins the frames).
    public let data: [UInt8]
    /// The status: SW2 of `91 xx`.
    public let status: DESFireStatus

    /// Reads a response APDU; an answer not ending in `91 xx` is not from a DESFire card.
    public init(_ response: ResponseAPDU, to command: DESFireInstruction) throws(DESFireError) {
        guard response.statusWord.sw1 == 0x91 else { throw .notDESFire(response.statusWord, command: command) }
        data = response.data
        status = DESFireStatus(rawValue: response.statusWord.sw2)
    }
}
