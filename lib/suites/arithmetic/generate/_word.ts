/**
 * Word problems in English and Chinese: change from a purchase, unit price,
 * discount, speed-distance-time, inventory. Amounts have `digits` digits.
 *
 * @module
 */
import { fraction } from "../../../math/rational.ts";
import type { Draft, Level } from "./_draft.ts";
import type { Rng } from "../../../math/rng.ts";

const PEOPLE = [
  ["Anna", "小红"],
  ["Ben", "小明"],
  ["Chen", "老陈"],
  ["Dana", "王阿姨"],
  ["Eli", "李师傅"],
] as const;
/** English name, Chinese name, Chinese measure word. */
const ITEMS = [
  ["notebooks", "笔记本", "本"],
  ["pens", "钢笔", "支"],
  ["mugs", "杯子", "个"],
  ["towels", "毛巾", "条"],
] as const;
const GOODS = [["apples", "苹果"], ["rice", "大米"], ["tea", "茶叶"]] as const;
/** English name, Chinese name with "one" and its measure word. */
const VEHICLES = [
  ["car", "一辆汽车"],
  ["train", "一列火车"],
  ["cyclist", "一位骑车人"],
] as const;

/** A word problem. */
export function wordProblem(rng: Rng, level: Level): Draft {
  const d = level.digits;
  const variant = rng.pick(
    [
      "change",
      "unit_price",
      "discount",
      "speed",
      "distance",
      "inventory",
    ] as const,
  );
  const [name, nameZh] = rng.pick(PEOPLE);
  const big = (digits: number) => BigInt(rng.digits(digits));
  const done = (
    en: string,
    zh: string,
    answer: ReturnType<typeof fraction>,
    payload: Record<string, unknown>,
  ): Draft => ({
    text: { en, zh },
    answer,
    dims: { variant },
    payload: { op: "word", variant, ...payload },
  });
  switch (variant) {
    case "change": {
      const [item, itemZh, measure] = rng.pick(ITEMS);
      const qty = BigInt(rng.int(2, 9)), price = big(d);
      let paid = 10n;
      while (paid < qty * price) paid *= 10n;
      return done(
        `${name} buys ${qty} ${item} at ${price} yuan each and pays with ${paid} yuan. How much change, in yuan, does ${name} get?`,
        `${nameZh}买了 ${qty} ${measure}${itemZh}，每${measure} ${price} 元，付了 ${paid} 元。应找回多少元？`,
        fraction(paid - qty * price),
        { qty: String(qty), price: String(price), paid: String(paid) },
      );
    }
    case "unit_price": {
      const [good, goodZh] = rng.pick(GOODS);
      const kg = BigInt(rng.int(2, 12)), unit = big(d);
      return done(
        `${kg} kg of ${good} cost ${
          kg * unit
        } yuan. What is the price per kg, in yuan?`,
        `${kg} 千克${goodZh}共 ${kg * unit} 元，每千克多少元？`,
        fraction(unit),
        { qty: String(kg), total: String(kg * unit) },
      );
    }
    case "discount": {
      const price = big(d), off = rng.pick([10, 15, 20, 25, 30, 40, 50]);
      return done(
        `A jacket costs ${price} yuan and is on sale at ${off}% off. What is the sale price, in yuan?`,
        `一件外套原价 ${price} 元，打 ${
          (100 - off) / 10
        } 折出售（即优惠 ${off}%），现价多少元？`,
        fraction(price).mul(fraction(BigInt(100 - off))).div(fraction(100n)),
        { price: String(price), off: String(off) },
      );
    }
    case "speed": {
      const [v, vZh] = rng.pick(VEHICLES);
      const hours = BigInt(rng.int(2, 9)), speed = big(Math.min(d, 3));
      const dist = hours * speed;
      return done(
        `A ${v} travels ${dist} km in ${hours} hours at a constant speed. What is its speed in km/h?`,
        `${vZh}匀速行驶，${hours} 小时行了 ${dist} 千米。它的速度是每小时多少千米？`,
        fraction(speed),
        { distance: String(dist), hours: String(hours) },
      );
    }
    case "distance": {
      const [v, vZh] = rng.pick(VEHICLES);
      const hours = BigInt(rng.int(2, 9)), speed = big(Math.min(d, 3));
      return done(
        `A ${v} moves at ${speed} km/h for ${hours} hours. How many km does it travel?`,
        `${vZh}以每小时 ${speed} 千米的速度行驶了 ${hours} 小时，一共行驶了多少千米？`,
        fraction(speed * hours),
        { speed: String(speed), hours: String(hours) },
      );
    }
    case "inventory": {
      const stock = big(d + 1), out = big(d), inn = big(d);
      return done(
        `A warehouse holds ${stock} boxes. It ships out ${out} boxes and receives ${inn} boxes. How many boxes does it hold now?`,
        `仓库里有 ${stock} 箱货，运出 ${out} 箱，又运进 ${inn} 箱。现在仓库里有多少箱？`,
        fraction(stock - out + inn),
        { stock: String(stock), out: String(out), in: String(inn) },
      );
    }
  }
}
