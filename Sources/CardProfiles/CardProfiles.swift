// CardProfiles: everything a program needs to read a card with cardscan's profiles, in one
// import — the profile language (ProfileLanguage), the report (CardReports), the engine that
// reads a card with a profile (ReadEngine) and card exploration (CardExploration).
@_exported import CardExploration
@_exported import CardReports
@_exported import ProfileLanguage
@_exported import ReadEngine
