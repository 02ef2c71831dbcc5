@_spi(Testing) import Cog
import Testing

struct Weather: Equatable {
  var zip: String
  var temperature: Int
}

@MainActor
@Suite("Dynamic dependencies")
struct DynamicDependencyTests {
  @Test("weatherHereCog switches its report when the ZIP changes, and drops the old edge")
  func weatherHere() {
    let runs = Runs()
    let currentZipCog = Cog<String?>(nil, label: "currentZip")
    let temperatures = Cog(["94110": 18, "10001": 25], label: "temperatures")
    let weatherReportCogs = CogBox(label: "weatherReport") { (zip: String, c) -> Weather? in
      runs.hit("report \(zip)")
      return c[temperatures][zip].map { Weather(zip: zip, temperature: $0) }
    }
    let weatherHereCog = Cog(label: "weatherHere") { c -> Weather? in
      runs.hit("here")
      guard let currentZip = c[currentZipCog] else { return nil }
      let weatherReport = c[weatherReportCogs[currentZip]]
      return weatherReport
    }
    let cogs = Cogs()
    #expect(cogs[weatherHereCog] == nil)
    cogs.turn("zip") { w in w[currentZipCog] = "94110" }
    #expect(cogs[weatherHereCog] == Weather(zip: "94110", temperature: 18))
    cogs.turn("zip") { w in w[currentZipCog] = "10001" }
    #expect(cogs[weatherHereCog] == Weather(zip: "10001", temperature: 25))
    let hereRuns = runs["here"]

    // The 94110 report is no longer a dependency: changing what only it reads...
    let boxedOld = weatherReportCogs["94110"]
    #expect(cogs.hasRow(boxedOld))
    cogs.turn("temps") { w in w[temperatures] = ["94110": 30, "10001": 25] }
    // ...reruns the 10001 report (it reads temperatures) but not weatherHere (equal result).
    #expect(cogs[weatherHereCog] == Weather(zip: "10001", temperature: 25))
    #expect(runs["here"] == hereRuns)
    #expect(runs["report 94110"] == 1)
  }

  @Test("shouldPackHatCog follows a changing list; removed ZIPs lose their edges")
  func shouldPackHat() {
    let runs = Runs()
    let vacationZipCodesCog = Cog(["94110", "10001"], label: "vacationZips")
    let hatWeather = Cog(Set(["10001"]), label: "hatWeather")
    let shouldWearHatCogs = CogBox(label: "shouldWearHat") { (zip: String, c) -> Bool in
      runs.hit("hat \(zip)")
      return c[hatWeather].contains(zip)
    }
    let shouldPackHatCog = Cog(label: "shouldPackHat") { c -> Bool in
      runs.hit("pack")
      let vacationZipCodes = c[vacationZipCodesCog]
      return vacationZipCodes.contains { zip in
        let shouldWearHat = c[shouldWearHatCogs[zip]]
        return shouldWearHat
      }
    }
    let cogs = Cogs()
    var packs: [Bool] = []
    cogs.react("watch") { c in packs.append(c[shouldPackHatCog]) }
    #expect(packs == [true])
    cogs.turn("drop 10001") { w in w[vacationZipCodesCog] = ["94110"] }
    #expect(packs == [true, false])
    // 10001 is no longer read: its row changes, but shouldPackHat does not rerun.
    let packRuns = runs["pack"]
    cogs.turn("hat weather") { w in w[hatWeather] = ["94110"] }
    #expect(packs == [true, false, true])
    #expect(runs["pack"] == packRuns + 1)
    cogs.turn("only 10001 changes") { w in w[hatWeather] = ["94110", "10001"] }
    #expect(packs == [true, false, true])
    #expect(runs["pack"] == packRuns + 1)
  }

  @Test("a dependency read only on one branch is dropped when the branch flips")
  func branchFlip() {
    let runs = Runs()
    let flag = Cog(true)
    let a = Cog(1)
    let b = Cog(2)
    let pick = Cog { c -> Int in
      runs.hit("pick")
      return c[flag] ? c[a] : c[b]
    }
    let cogs = Cogs()
    #expect(cogs[pick] == 1)
    cogs.turn("flip") { w in w[flag] = false }
    #expect(cogs[pick] == 2)
    cogs.turn("a") { w in w[a] = 100 }
    #expect(cogs[pick] == 2)
    #expect(runs["pick"] == 2)
  }
}
