#pragma once
namespace referee::ancients {
extern const char* const kStandardTerrainJson;
extern const char* const kStandardCardsJson;
}  // namespace referee::ancients
