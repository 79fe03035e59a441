// Placeholder so the library has a translation unit until the module lands.
namespace referee::warmaster {}
