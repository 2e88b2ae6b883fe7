/// The Classic and Ultralight card images live with the MIFARE commands (cardsim serves them);
/// importing CardDumps gives them too.
@_exported import MIFARECommands
