// The unit classes of the movement text (ancients.movement.allowance and
// ancients.movement.battle), and the selectors that name groups of them.
#include <stdexcept>

#include "referee/ancients/model.hpp"

namespace referee::ancients {

const std::vector<UnitClass>& unit_classes() {
  using C = Category;
  using W = Weight;
  using B = BattleAfterMove;
  // id, name, category, weight (ordered and hit as), war machine, max hexes, battle after moving,
  // warrior charge, blocks, badge
  static const std::vector<UnitClass> classes{
      {"light_infantry", "light infantry", C::foot, W::light, false, 2, B::always, false, 4, "LI"},
      {"light_sling_infantry", "light sling infantry", C::foot, W::light, false, 2, B::always, false, 4, "LS"},
      {"light_bow_infantry", "light bow infantry", C::foot, W::light, false, 2, B::always, false, 4, "LB"},
      {"auxilia", "auxilia", C::foot, W::light, false, 2, B::only_after_one, false, 4, "AX"},
      {"light_war_machine", "light war machine", C::foot, W::light, true, 1, B::never_if_moved, false, 2, "LWM"},
      {"medium_infantry", "medium infantry", C::foot, W::medium, false, 1, B::always, false, 4, "MI"},
      {"warrior", "warrior", C::foot, W::medium, false, 2, B::always, true, 4, "WI"},
      {"heavy_infantry", "heavy infantry", C::foot, W::heavy, false, 1, B::always, false, 4, "HI"},
      {"heavy_war_machine", "heavy war machine", C::foot, W::heavy, true, 1, B::never_if_moved, false, 2, "HWM"},
      {"light_cavalry", "light cavalry", C::mounted, W::light, false, 4, B::always, false, 3, "LC"},
      {"light_bow_cavalry", "light bow cavalry", C::mounted, W::light, false, 4, B::always, false, 3, "LBC"},
      {"light_chariot", "light chariot", C::mounted, W::light, false, 3, B::always, false, 3, "LCH"},
      {"medium_cavalry", "medium cavalry", C::mounted, W::medium, false, 3, B::always, false, 3, "MC"},
      {"camel", "camel", C::mounted, W::medium, false, 3, B::always, false, 3, "CAM"},
      {"heavy_cavalry", "heavy cavalry", C::mounted, W::heavy, false, 2, B::always, false, 3, "HC"},
      {"elephant", "elephant", C::mounted, W::heavy, false, 2, B::always, false, 2, "EL"},
      {"heavy_chariot", "heavy chariot", C::mounted, W::heavy, false, 2, B::always, false, 3, "HCH"},
  };
  return classes;
}

int find_unit_class(const std::string& id) {
  const auto& cs = unit_classes();
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (cs[i].id == id) return static_cast<int>(i);
  return -1;
}

std::string weight_name(Weight w) {
  switch (w) {
    case Weight::light: return "light";
    case Weight::medium: return "medium";
    default: return "heavy";
  }
}

std::string category_name(Category c) { return c == Category::foot ? "foot" : "mounted"; }

ClassMask class_mask(const std::string& selector) {
  const auto& cs = unit_classes();
  ClassMask m = 0;
  bool known = false;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const UnitClass& c = cs[i];
    std::string w = weight_name(c.weight), cat = category_name(c.category);
    bool match = selector == "all" || selector == c.id || selector == cat || selector == w ||
                 selector == w + "_" + cat || (selector == "war_machine" && c.war_machine);
    if (match) m |= ClassMask{1} << i;
  }
  known = m != 0 || selector == "none";
  if (!known) throw std::invalid_argument(selector);
  return m;
}

}  // namespace referee::ancients
