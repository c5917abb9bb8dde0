/**
 * The 52 C-Eval subjects as a typed table of facts: key, English and
 * Chinese name, category, level and whether the subject is in C-Eval HARD.
 * Names and categories follow the official `subject_mapping.json`.
 *
 * @module
 */

/** The four C-Eval categories. */
export type CevalCategory = "STEM" | "Social Science" | "Humanities" | "Other";

/** The four C-Eval difficulty levels. */
export type CevalLevel =
  | "middle school"
  | "high school"
  | "college"
  | "professional";

/** One C-Eval subject. */
export interface CevalSubject {
  /** File-name key, e.g. `"advanced_mathematics"`. */
  key: string;
  /** English name, e.g. `"Advanced Mathematics"`. */
  name: string;
  /** Chinese name as used in the official prompt, e.g. `"高等数学"`. */
  nameZh: string;
  /** The C-Eval category (STEM, Social Science, Humanities, Other). */
  category: CevalCategory;
  /** The C-Eval level (middle school to professional). */
  level: CevalLevel;
  /** In the 8-subject C-Eval HARD subset. */
  hard: boolean;
}

type Row = [string, string, string, CevalCategory, CevalLevel];

const HARD_KEYS: ReadonlySet<string> = new Set([
  "advanced_mathematics",
  "discrete_mathematics",
  "probability_and_statistics",
  "college_chemistry",
  "college_physics",
  "high_school_mathematics",
  "high_school_chemistry",
  "high_school_physics",
]);

const ROWS: readonly Row[] = [
  // STEM (20)
  ["computer_network", "Computer Network", "计算机网络", "STEM", "college"],
  ["operating_system", "Operating System", "操作系统", "STEM", "college"],
  [
    "computer_architecture",
    "Computer Architecture",
    "计算机组成",
    "STEM",
    "college",
  ],
  ["college_programming", "College Programming", "大学编程", "STEM", "college"],
  ["college_physics", "College Physics", "大学物理", "STEM", "college"],
  ["college_chemistry", "College Chemistry", "大学化学", "STEM", "college"],
  [
    "advanced_mathematics",
    "Advanced Mathematics",
    "高等数学",
    "STEM",
    "college",
  ],
  [
    "probability_and_statistics",
    "Probability and Statistics",
    "概率统计",
    "STEM",
    "college",
  ],
  [
    "discrete_mathematics",
    "Discrete Mathematics",
    "离散数学",
    "STEM",
    "college",
  ],
  [
    "electrical_engineer",
    "Electrical Engineer",
    "注册电气工程师",
    "STEM",
    "professional",
  ],
  [
    "metrology_engineer",
    "Metrology Engineer",
    "注册计量师",
    "STEM",
    "professional",
  ],
  [
    "high_school_mathematics",
    "High School Mathematics",
    "高中数学",
    "STEM",
    "high school",
  ],
  [
    "high_school_physics",
    "High School Physics",
    "高中物理",
    "STEM",
    "high school",
  ],
  [
    "high_school_chemistry",
    "High School Chemistry",
    "高中化学",
    "STEM",
    "high school",
  ],
  [
    "high_school_biology",
    "High School Biology",
    "高中生物",
    "STEM",
    "high school",
  ],
  [
    "middle_school_mathematics",
    "Middle School Mathematics",
    "初中数学",
    "STEM",
    "middle school",
  ],
  [
    "middle_school_biology",
    "Middle School Biology",
    "初中生物",
    "STEM",
    "middle school",
  ],
  [
    "middle_school_physics",
    "Middle School Physics",
    "初中物理",
    "STEM",
    "middle school",
  ],
  [
    "middle_school_chemistry",
    "Middle School Chemistry",
    "初中化学",
    "STEM",
    "middle school",
  ],
  [
    "veterinary_medicine",
    "Veterinary Medicine",
    "兽医学",
    "STEM",
    "college",
  ],
  // Social Science (10)
  [
    "college_economics",
    "College Economics",
    "大学经济学",
    "Social Science",
    "college",
  ],
  [
    "business_administration",
    "Business Administration",
    "工商管理",
    "Social Science",
    "college",
  ],
  ["marxism", "Marxism", "马克思主义基本原理", "Social Science", "college"],
  [
    "mao_zedong_thought",
    "Mao Zedong Thought",
    "毛泽东思想和中国特色社会主义理论体系概论",
    "Social Science",
    "college",
  ],
  [
    "education_science",
    "Education Science",
    "教育学",
    "Social Science",
    "college",
  ],
  [
    "teacher_qualification",
    "Teacher Qualification",
    "教师资格",
    "Social Science",
    "professional",
  ],
  [
    "high_school_politics",
    "High School Politics",
    "高中政治",
    "Social Science",
    "high school",
  ],
  [
    "high_school_geography",
    "High School Geography",
    "高中地理",
    "Social Science",
    "high school",
  ],
  [
    "middle_school_politics",
    "Middle School Politics",
    "初中政治",
    "Social Science",
    "middle school",
  ],
  [
    "middle_school_geography",
    "Middle School Geography",
    "初中地理",
    "Social Science",
    "middle school",
  ],
  // Humanities (11)
  [
    "modern_chinese_history",
    "Modern Chinese History",
    "近代史纲要",
    "Humanities",
    "college",
  ],
  [
    "ideological_and_moral_cultivation",
    "Ideological and Moral Cultivation",
    "思想道德修养与法律基础",
    "Humanities",
    "college",
  ],
  ["logic", "Logic", "逻辑学", "Humanities", "college"],
  ["law", "Law", "法学", "Humanities", "college"],
  [
    "chinese_language_and_literature",
    "Chinese Language and Literature",
    "中国语言文学",
    "Humanities",
    "college",
  ],
  ["art_studies", "Art Studies", "艺术学", "Humanities", "college"],
  [
    "professional_tour_guide",
    "Professional Tour Guide",
    "导游资格",
    "Humanities",
    "professional",
  ],
  [
    "legal_professional",
    "Legal Professional",
    "法律职业资格",
    "Humanities",
    "professional",
  ],
  [
    "high_school_chinese",
    "High School Chinese",
    "高中语文",
    "Humanities",
    "high school",
  ],
  [
    "high_school_history",
    "High School History",
    "高中历史",
    "Humanities",
    "high school",
  ],
  [
    "middle_school_history",
    "Middle School History",
    "初中历史",
    "Humanities",
    "middle school",
  ],
  // Other (11)
  ["civil_servant", "Civil Servant", "公务员", "Other", "professional"],
  ["sports_science", "Sports Science", "体育学", "Other", "college"],
  ["plant_protection", "Plant Protection", "植物保护", "Other", "college"],
  ["basic_medicine", "Basic Medicine", "基础医学", "Other", "college"],
  ["clinical_medicine", "Clinical Medicine", "临床医学", "Other", "college"],
  [
    "urban_and_rural_planner",
    "Urban and Rural Planner",
    "注册城乡规划师",
    "Other",
    "professional",
  ],
  ["accountant", "Accountant", "注册会计师", "Other", "professional"],
  ["fire_engineer", "Fire Engineer", "注册消防工程师", "Other", "professional"],
  [
    "environmental_impact_assessment_engineer",
    "Environmental Impact Assessment Engineer",
    "环境影响评价工程师",
    "Other",
    "professional",
  ],
  ["tax_accountant", "Tax Accountant", "税务师", "Other", "professional"],
  ["physician", "Physician", "医师资格", "Other", "professional"],
];

/**
 * All 52 C-Eval subjects, in the order of the official subject mapping
 * (STEM, Social Science, Humanities, Other).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CEVAL_SUBJECTS } from "./subjects.ts";
 * assert.equal(CEVAL_SUBJECTS.length, 52);
 * assert.equal(CEVAL_SUBJECTS.filter((s) => s.hard).length, 8);
 * ```
 */
export const CEVAL_SUBJECTS: readonly CevalSubject[] = Object.freeze(
  ROWS.map(([key, name, nameZh, category, level]) =>
    Object.freeze({
      key,
      name,
      nameZh,
      category,
      level,
      hard: HARD_KEYS.has(key),
    })
  ),
);

const BY_KEY: ReadonlyMap<string, CevalSubject> = new Map(
  CEVAL_SUBJECTS.map((s) => [s.key, s]),
);

/**
 * Looks a C-Eval subject up by its key.
 *
 * @param key The subject key, e.g. `"college_physics"`.
 * @returns The subject, or undefined for an unknown key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cevalSubject } from "./subjects.ts";
 * assert.equal(cevalSubject("college_physics")?.nameZh, "大学物理");
 * assert.equal(cevalSubject("college_physics")?.hard, true);
 * assert.equal(cevalSubject("nope"), undefined);
 * ```
 */
export function cevalSubject(key: string): CevalSubject | undefined {
  return BY_KEY.get(key);
}

/**
 * The keys of the 8 C-Eval HARD subjects.
 *
 * @returns Keys in table order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cevalHardSubjects } from "./subjects.ts";
 * assert.ok(cevalHardSubjects().includes("discrete_mathematics"));
 * ```
 */
export function cevalHardSubjects(): string[] {
  return CEVAL_SUBJECTS.filter((s) => s.hard).map((s) => s.key);
}
