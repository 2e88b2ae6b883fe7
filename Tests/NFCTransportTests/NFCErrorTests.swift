import APDU
import NFCTransport
import Testing

/// A libnfc failure is recorded in a transcript by nfc.h's name for its code.
@Suite struct NFCErrorTests {
    @Test func failuresAreNamedAsNfcHNamesThem() {
        #expect(NFCError(code: .io, function: "nfc_initiator_transceive_bytes").failure == .other("NFC_EIO"))
        #expect(NFCError(code: .mifareAuthFailed, function: "x").failure == .other("NFC_EMFCAUTHFAIL"))
        #expect(NFCError(code: .timeout, function: "x").failure == .timeout)
        #expect(NFCError(code: .targetReleased, function: "x").failure == .removed)
        #expect(NFCError.Code.noDevice.constantName == "CARDSCAN_NO_DEVICE")
    }
}
