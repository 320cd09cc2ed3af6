// The brands and products a simulated answer names (decisions.md "The simulator names brands"):
// per topic area, catalogues of real names with their aliases and domains (some local to a
// country), and the sentences that name them: a ranked list, prose, and now and then a sentence
// saying the engine found nothing about one of them. Which brands an answer names, and in what
// order, is drawn per engine and repeat from weights that differ by engine, so engines disagree
// the way real ones do, and the same seed always gives the same answer.
import { countryName } from "../../locale/codes";
import { hash32, type Rng } from "./rng";
import { find, type DomainId } from "./topics";

export interface Brand {
  name: string;
  aliases?: string[];
  domains: string[];
  /** How often engines name it, relative to its catalogue (default 1). */
  weight?: number;
  /** Named only for searchers in these countries (ISO 3166-1 alpha-2); everywhere when absent. */
  countries?: string[];
}

interface Catalogue {
  /** Words of a prompt this catalogue is for (lower case); empty: the topic area's default. */
  focus: string[];
  brands: Brand[];
}

const b = (name: string, domains: string | string[], extra: Omit<Brand, "name" | "domains"> = {}): Brand => ({
  name,
  domains: Array.isArray(domains) ? domains : [domains],
  ...extra,
});

const CATALOGUES: Record<DomainId, Catalogue[]> = {
  business: [
    {
      focus: ["crm", "sales pipeline", "lead generation", "b2b"],
      brands: [
        b("HubSpot", "hubspot.com", { aliases: ["HubSpot CRM"], weight: 3 }),
        b("Salesforce", "salesforce.com", { aliases: ["Salesforce Sales Cloud", "Sales Cloud"], weight: 2.6 }),
        b("Pipedrive", "pipedrive.com", { weight: 2.2 }),
        b("Zoho CRM", "zoho.com", { aliases: ["Zoho"], weight: 1.8 }),
        b("Freshsales", "freshworks.com", { aliases: ["Freshworks CRM"], weight: 1.2 }),
        b("monday CRM", "monday.com", { aliases: ["monday.com", "monday sales CRM"], weight: 1.1 }),
        b("Close", "close.com", { aliases: ["Close CRM"], weight: 0.6 }),
        b("Copper", "copper.com", { aliases: ["Copper CRM"], weight: 0.5 }),
        b("Attio", "attio.com", { weight: 0.5 }),
        b("CentralStationCRM", "centralstationcrm.de", { countries: ["DE", "AT", "CH"], weight: 1.4 }),
        b("weclapp", "weclapp.com", { countries: ["DE", "AT", "CH"], weight: 1 }),
        b("Axonaut", "axonaut.com", { countries: ["FR", "BE"], weight: 1.4 }),
        b("Sellsy", "sellsy.com", { countries: ["FR", "BE"], weight: 1.1 }),
        b("RD Station CRM", "rdstation.com", { aliases: ["RD Station"], countries: ["BR"], weight: 1.8 }),
        b("Agendor", "agendor.com.br", { countries: ["BR"], weight: 1.2 }),
        b("Ploomes", "ploomes.com", { countries: ["BR"], weight: 0.9 }),
        b("LeadSquared", "leadsquared.com", { countries: ["IN"], weight: 1.3 }),
        b("Sansan", "sansan.com", { countries: ["JP"], weight: 1.2 }),
      ],
    },
    {
      focus: ["project management", "okr"],
      brands: [
        b("Asana", "asana.com", { weight: 2.4 }),
        b("Trello", "trello.com", { weight: 2 }),
        b("Jira", "atlassian.com", { aliases: ["Jira Software"], weight: 2 }),
        b("monday.com", "monday.com", { aliases: ["monday work management"], weight: 2 }),
        b("ClickUp", "clickup.com", { weight: 1.7 }),
        b("Notion", "notion.so", { weight: 1.5 }),
        b("Basecamp", "basecamp.com", { weight: 1 }),
        b("Wrike", "wrike.com", { weight: 0.8 }),
        b("Linear", "linear.app", { weight: 0.6 }),
        b("Stackfield", "stackfield.com", { countries: ["DE", "AT", "CH"], weight: 1.2 }),
        b("Beesbusy", "beesbusy.com", { countries: ["FR"], weight: 0.8 }),
      ],
    },
    {
      focus: ["accounting", "bookkeeping", "invoicing", "payroll", "erp"],
      brands: [
        b("QuickBooks", ["quickbooks.intuit.com", "intuit.com"], { aliases: ["QuickBooks Online", "Intuit QuickBooks"], weight: 3 }),
        b("Xero", "xero.com", { weight: 2.4 }),
        b("FreshBooks", "freshbooks.com", { weight: 1.6 }),
        b("Wave", "waveapps.com", { aliases: ["Wave Accounting"], weight: 1.1 }),
        b("Sage", "sage.com", { aliases: ["Sage Accounting"], weight: 1.2 }),
        b("Zoho Books", "zoho.com", { weight: 1 }),
        b("Gusto", "gusto.com", { weight: 0.8, countries: ["US"] }),
        b("FreeAgent", "freeagent.com", { countries: ["GB"], weight: 1.5 }),
        b("DATEV", "datev.de", { countries: ["DE"], weight: 2 }),
        b("lexoffice", "lexoffice.de", { aliases: ["Lexware Office"], countries: ["DE"], weight: 1.8 }),
        b("sevDesk", "sevdesk.de", { countries: ["DE", "AT"], weight: 1.5 }),
        b("Pennylane", "pennylane.com", { countries: ["FR"], weight: 1.8 }),
        b("Conta Azul", "contaazul.com", { countries: ["BR"], weight: 1.8 }),
        b("Omie", "omie.com.br", { countries: ["BR"], weight: 1.3 }),
        b("Holded", "holded.com", { countries: ["ES"], weight: 1.7 }),
        b("Tally", "tallysolutions.com", { aliases: ["TallyPrime"], countries: ["IN"], weight: 2 }),
        b("freee", "freee.co.jp", { countries: ["JP"], weight: 1.8 }),
        b("Money Forward", "moneyforward.com", { countries: ["JP"], weight: 1.5 }),
      ],
    },
    {
      focus: ["email marketing", "marketing automation", "seo"],
      brands: [
        b("Mailchimp", "mailchimp.com", { weight: 3 }),
        b("Brevo", "brevo.com", { aliases: ["Sendinblue"], weight: 1.8 }),
        b("Klaviyo", "klaviyo.com", { weight: 1.6 }),
        b("ActiveCampaign", "activecampaign.com", { weight: 1.4 }),
        b("Kit", "kit.com", { aliases: ["ConvertKit"], weight: 1 }),
        b("MailerLite", "mailerlite.com", { weight: 1.2 }),
        b("CleverReach", "cleverreach.com", { countries: ["DE", "AT", "CH"], weight: 1.6 }),
        b("rapidmail", "rapidmail.de", { countries: ["DE"], weight: 1.1 }),
        b("RD Station Marketing", "rdstation.com", { countries: ["BR"], weight: 1.6 }),
      ],
    },
    {
      focus: ["helpdesk", "help desk", "customer support"],
      brands: [
        b("Zendesk", "zendesk.com", { weight: 3 }),
        b("Freshdesk", "freshworks.com", { weight: 2 }),
        b("Intercom", "intercom.com", { weight: 1.8 }),
        b("Help Scout", "helpscout.com", { weight: 1.2 }),
        b("Zoho Desk", "zoho.com", { weight: 1 }),
        b("Gorgias", "gorgias.com", { weight: 0.8 }),
      ],
    },
    {
      focus: [],
      brands: [
        b("HubSpot", "hubspot.com", { weight: 2 }),
        b("Salesforce", "salesforce.com", { weight: 1.6 }),
        b("Zoho", "zoho.com", { weight: 1.4 }),
        b("Notion", "notion.so", { weight: 1.2 }),
        b("Slack", "slack.com", { weight: 1.2 }),
        b("Shopify", "shopify.com", { weight: 1 }),
        b("Stripe", "stripe.com", { weight: 0.9 }),
      ],
    },
  ],
  tech: [
    {
      focus: ["cloud", "aws", "docker", "kubernetes", "linux", "database", "postgresql", "postgres", "mysql", "sqlite", "sql"],
      brands: [
        b("AWS", "aws.amazon.com", { aliases: ["Amazon Web Services"], weight: 3 }),
        b("Google Cloud", "cloud.google.com", { aliases: ["GCP"], weight: 2 }),
        b("Microsoft Azure", "azure.microsoft.com", { aliases: ["Azure"], weight: 2.2 }),
        b("DigitalOcean", "digitalocean.com", { weight: 1.2 }),
        b("Supabase", "supabase.com", { weight: 0.9 }),
        b("Neon", "neon.tech", { weight: 0.6 }),
        b("Hetzner", "hetzner.com", { countries: ["DE", "AT", "CH", "NL"], weight: 2 }),
        b("IONOS", "ionos.de", { countries: ["DE", "ES", "GB"], weight: 1.2 }),
        b("OVHcloud", "ovhcloud.com", { aliases: ["OVH"], countries: ["FR", "ES", "IT"], weight: 1.8 }),
        b("Scaleway", "scaleway.com", { countries: ["FR"], weight: 1.1 }),
        b("Sakura Internet", "sakura.ad.jp", { countries: ["JP"], weight: 1.2 }),
      ],
    },
    {
      focus: [],
      brands: [
        b("Visual Studio Code", "code.visualstudio.com", { aliases: ["VS Code"], weight: 2.5 }),
        b("JetBrains", "jetbrains.com", { aliases: ["IntelliJ IDEA", "PyCharm", "RustRover"], weight: 1.8 }),
        b("GitHub Copilot", "github.com", { aliases: ["Copilot"], weight: 2 }),
        b("Codecademy", "codecademy.com", { weight: 1.2 }),
        b("freeCodeCamp", "freecodecamp.org", { weight: 1.3 }),
        b("Exercism", "exercism.org", { weight: 0.8 }),
        b("Udemy", "udemy.com", { weight: 1 }),
        b("Cursor", "cursor.com", { weight: 1 }),
      ],
    },
  ],
  finance: [
    {
      focus: ["crypto", "bitcoin"],
      brands: [
        b("Coinbase", "coinbase.com", { weight: 3 }),
        b("Kraken", "kraken.com", { weight: 2 }),
        b("Binance", "binance.com", { weight: 1.8 }),
        b("Bitpanda", "bitpanda.com", { countries: ["DE", "AT", "FR", "IT"], weight: 1.8 }),
        b("Mercado Bitcoin", "mercadobitcoin.com.br", { countries: ["BR"], weight: 1.8 }),
        b("bitFlyer", "bitflyer.com", { countries: ["JP"], weight: 1.8 }),
      ],
    },
    {
      focus: [],
      brands: [
        b("Vanguard", "vanguard.com", { weight: 2.4 }),
        b("Fidelity", "fidelity.com", { aliases: ["Fidelity Investments"], weight: 2.2 }),
        b("Charles Schwab", "schwab.com", { aliases: ["Schwab"], weight: 2 }),
        b("Robinhood", "robinhood.com", { weight: 1.2, countries: ["US", "GB"] }),
        b("SoFi", "sofi.com", { weight: 1, countries: ["US"] }),
        b("Ally", "ally.com", { aliases: ["Ally Bank"], weight: 1, countries: ["US"] }),
        b("Wealthfront", "wealthfront.com", { weight: 0.9, countries: ["US"] }),
        b("Revolut", "revolut.com", { weight: 1 }),
        b("Monzo", "monzo.com", { countries: ["GB"], weight: 1.8 }),
        b("Hargreaves Lansdown", "hl.co.uk", { countries: ["GB"], weight: 1.6 }),
        b("Trade Republic", "traderepublic.com", { countries: ["DE", "AT", "FR", "ES", "IT"], weight: 2 }),
        b("Scalable Capital", "scalable.capital", { countries: ["DE", "AT"], weight: 1.7 }),
        b("comdirect", "comdirect.de", { countries: ["DE"], weight: 1.3 }),
        b("N26", "n26.com", { countries: ["DE", "AT", "FR", "ES", "IT"], weight: 1.2 }),
        b("BoursoBank", "boursobank.com", { aliases: ["Boursorama Banque"], countries: ["FR"], weight: 1.8 }),
        b("Nubank", "nubank.com.br", { aliases: ["Nu"], countries: ["BR"], weight: 2.2 }),
        b("XP Investimentos", "xpi.com.br", { aliases: ["XP"], countries: ["BR"], weight: 1.6 }),
        b("Banco Inter", "bancointer.com.br", { countries: ["BR"], weight: 1.2 }),
        b("Zerodha", "zerodha.com", { countries: ["IN"], weight: 2 }),
        b("Groww", "groww.in", { countries: ["IN"], weight: 1.7 }),
        b("SBI Securities", "sbisec.co.jp", { aliases: ["SBI証券"], countries: ["JP"], weight: 1.8 }),
        b("MyInvestor", "myinvestor.es", { countries: ["ES"], weight: 1.5 }),
      ],
    },
  ],
  health: [
    {
      focus: [],
      brands: [
        b("MyFitnessPal", "myfitnesspal.com", { weight: 2 }),
        b("Headspace", "headspace.com", { weight: 1.5 }),
        b("Calm", "calm.com", { weight: 1.3 }),
        b("Fitbit", "fitbit.com", { weight: 1.4 }),
        b("Garmin", "garmin.com", { weight: 1.2 }),
        b("Oura", "ouraring.com", { aliases: ["Oura Ring"], weight: 1 }),
        b("Strava", "strava.com", { weight: 1 }),
        b("Noom", "noom.com", { weight: 0.8 }),
        b("YAZIO", "yazio.com", { countries: ["DE", "AT", "CH"], weight: 1.6 }),
        b("Doctolib", "doctolib.fr", { countries: ["FR", "DE", "IT"], weight: 1.5 }),
        b("HealthifyMe", "healthifyme.com", { countries: ["IN"], weight: 1.6 }),
        b("Practo", "practo.com", { countries: ["IN"], weight: 1.3 }),
      ],
    },
  ],
  travel: [
    {
      focus: [],
      brands: [
        b("Booking.com", "booking.com", { aliases: ["Booking"], weight: 2.6 }),
        b("Expedia", "expedia.com", { weight: 2 }),
        b("Airbnb", "airbnb.com", { weight: 2 }),
        b("Skyscanner", "skyscanner.net", { weight: 2 }),
        b("Kayak", "kayak.com", { weight: 1.6 }),
        b("Google Flights", "google.com", { weight: 1.8 }),
        b("Tripadvisor", "tripadvisor.com", { weight: 1.4 }),
        b("Hopper", "hopper.com", { weight: 0.7 }),
        b("Trainline", "thetrainline.com", { countries: ["GB", "FR", "IT", "ES", "DE"], weight: 1.4 }),
        b("easyJet", "easyjet.com", { countries: ["GB", "FR", "ES", "IT", "DE", "CH"], weight: 1.2 }),
        b("CHECK24", "check24.de", { countries: ["DE"], weight: 1.8 }),
        b("HolidayCheck", "holidaycheck.de", { countries: ["DE", "AT", "CH"], weight: 1.5 }),
        b("SNCF Connect", "sncf-connect.com", { countries: ["FR"], weight: 1.6 }),
        b("eDreams", "edreams.es", { countries: ["ES", "IT"], weight: 1.4 }),
        b("Decolar", "decolar.com", { countries: ["BR"], weight: 1.8 }),
        b("LATAM Airlines", "latamairlines.com", { aliases: ["LATAM"], countries: ["BR"], weight: 1.3 }),
        b("MakeMyTrip", "makemytrip.com", { countries: ["IN"], weight: 2 }),
        b("Jalan", "jalan.net", { aliases: ["じゃらん"], countries: ["JP"], weight: 1.6 }),
        b("Rakuten Travel", "travel.rakuten.co.jp", { aliases: ["楽天トラベル"], countries: ["JP"], weight: 1.6 }),
      ],
    },
  ],
  food: [
    {
      focus: ["coffee", "espresso", "tea"],
      brands: [
        b("Breville", "breville.com", { aliases: ["Breville Barista Express", "Sage"], weight: 2.2 }),
        b("De'Longhi", "delonghi.com", { aliases: ["DeLonghi"], weight: 2 }),
        b("Nespresso", "nespresso.com", { weight: 1.8 }),
        b("Lavazza", "lavazza.com", { weight: 1.2 }),
        b("illy", "illy.com", { weight: 0.9 }),
        b("Jura", "jura.com", { countries: ["DE", "CH", "AT"], weight: 1.6 }),
        b("Melitta", "melitta.de", { countries: ["DE"], weight: 1.4 }),
        b("Tchibo", "tchibo.de", { countries: ["DE", "AT"], weight: 1.3 }),
        b("Bialetti", "bialetti.com", { countries: ["IT"], weight: 1.8 }),
        b("3 Corações", "3coracoes.com.br", { countries: ["BR"], weight: 1.6 }),
      ],
    },
    {
      focus: [],
      brands: [
        b("KitchenAid", "kitchenaid.com", { weight: 1.8 }),
        b("Le Creuset", "lecreuset.com", { weight: 1.5 }),
        b("Lodge", "lodgecastiron.com", { aliases: ["Lodge Cast Iron"], weight: 1.3 }),
        b("HelloFresh", "hellofresh.com", { weight: 1.4 }),
        b("Instant Pot", "instantpot.com", { weight: 1.2 }),
        b("King Arthur Baking", "kingarthurbaking.com", { aliases: ["King Arthur"], weight: 1, countries: ["US"] }),
        b("Thermomix", "thermomix.de", { aliases: ["Vorwerk Thermomix"], countries: ["DE", "AT", "FR", "ES", "IT"], weight: 1.8 }),
        b("WMF", "wmf.com", { countries: ["DE", "AT"], weight: 1.2 }),
        b("Tefal", "tefal.fr", { countries: ["FR", "ES", "GB"], weight: 1.4 }),
        b("Tramontina", "tramontina.com.br", { countries: ["BR"], weight: 1.8 }),
        b("Prestige", "ttkprestige.com", { aliases: ["TTK Prestige"], countries: ["IN"], weight: 1.6 }),
        b("Zojirushi", "zojirushi.com", { countries: ["JP", "US"], weight: 1 }),
      ],
    },
  ],
  products: [
    {
      focus: ["headphones", "earbuds", "speaker"],
      brands: [
        b("Sony", "sony.com", { aliases: ["Sony WH-1000XM6", "WH-1000XM6"], weight: 2.6 }),
        b("Bose", "bose.com", { aliases: ["Bose QuietComfort Ultra", "QuietComfort"], weight: 2.4 }),
        b("AirPods Pro", "apple.com", { aliases: ["AirPods", "Apple AirPods"], weight: 2.2 }),
        b("Sennheiser", "sennheiser.com", { weight: 1.5 }),
        b("Jabra", "jabra.com", { weight: 1 }),
        b("Anker Soundcore", "soundcore.com", { aliases: ["Soundcore"], weight: 1.1 }),
        b("JBL", "jbl.com", { weight: 1.2 }),
        b("Teufel", "teufel.de", { countries: ["DE", "AT", "CH"], weight: 1.5 }),
        b("boAt", "boat-lifestyle.com", { countries: ["IN"], weight: 2 }),
      ],
    },
    {
      focus: ["laptop", "tablet", "monitor", "keyboard"],
      brands: [
        b("MacBook Air", "apple.com", { aliases: ["MacBook", "Apple MacBook Air"], weight: 2.6 }),
        b("Dell XPS", "dell.com", { aliases: ["XPS 13"], weight: 1.8 }),
        b("Lenovo ThinkPad", "lenovo.com", { aliases: ["ThinkPad"], weight: 2 }),
        b("HP Spectre", "hp.com", { weight: 1.2 }),
        b("ASUS Zenbook", "asus.com", { aliases: ["Zenbook"], weight: 1.3 }),
        b("Framework Laptop", "frame.work", { aliases: ["Framework"], weight: 0.8 }),
        b("Acer Swift", "acer.com", { weight: 0.9 }),
        b("TUXEDO", "tuxedocomputers.com", { countries: ["DE", "AT"], weight: 1.2 }),
        b("Positivo", "positivotecnologia.com.br", { countries: ["BR"], weight: 1.3 }),
      ],
    },
    {
      focus: ["phone", "smartphone", "iphone"],
      brands: [
        b("iPhone", "apple.com", { aliases: ["Apple iPhone", "iPhone 17"], weight: 2.8 }),
        b("Samsung Galaxy", "samsung.com", { aliases: ["Galaxy S26", "Samsung"], weight: 2.6 }),
        b("Google Pixel", "store.google.com", { aliases: ["Pixel"], weight: 2 }),
        b("OnePlus", "oneplus.com", { weight: 1.1 }),
        b("Xiaomi", "mi.com", { aliases: ["Redmi"], weight: 1.2 }),
        b("Motorola", "motorola.com", { aliases: ["moto g"], weight: 1 }),
        b("Fairphone", "fairphone.com", { countries: ["NL", "DE", "FR", "AT"], weight: 1.3 }),
      ],
    },
    {
      focus: ["vacuum", "robot vacuum"],
      brands: [
        b("Dyson", "dyson.com", { weight: 2.5 }),
        b("Shark", "sharkclean.com", { aliases: ["SharkNinja"], weight: 2 }),
        b("Roborock", "roborock.com", { weight: 2 }),
        b("iRobot Roomba", "irobot.com", { aliases: ["Roomba", "iRobot"], weight: 1.8 }),
        b("Ecovacs", "ecovacs.com", { aliases: ["Deebot"], weight: 1.2 }),
        b("Eufy", "eufy.com", { weight: 1 }),
        b("Miele", "miele.de", { countries: ["DE", "AT", "CH", "NL"], weight: 1.8 }),
        b("Vorwerk Kobold", "kobold.vorwerk.de", { aliases: ["Kobold"], countries: ["DE", "AT"], weight: 1.3 }),
        b("Rowenta", "rowenta.fr", { countries: ["FR", "ES", "DE"], weight: 1.3 }),
      ],
    },
    {
      focus: ["mattress"],
      brands: [
        b("Casper", "casper.com", { weight: 2 }),
        b("Purple", "purple.com", { weight: 1.8 }),
        b("Tempur-Pedic", "tempurpedic.com", { aliases: ["Tempur"], weight: 1.8 }),
        b("Saatva", "saatva.com", { weight: 1.6 }),
        b("Nectar", "nectarsleep.com", { weight: 1.3 }),
        b("Emma", "emma-sleep.com", { countries: ["DE", "GB", "FR", "ES", "IT", "NL"], weight: 2 }),
        b("Simba", "simbasleep.com", { countries: ["GB"], weight: 1.6 }),
        b("Bodyguard", "bett1.de", { aliases: ["bett1 Bodyguard"], countries: ["DE"], weight: 1.4 }),
      ],
    },
    {
      focus: ["running shoes", "trail running shoes", "shoes", "sneakers"],
      brands: [
        b("Brooks", "brooksrunning.com", { aliases: ["Brooks Ghost", "Brooks Running"], weight: 2.2 }),
        b("Hoka", "hoka.com", { aliases: ["HOKA", "Hoka Clifton", "Hoka Speedgoat"], weight: 2.4 }),
        b("ASICS", "asics.com", { aliases: ["Asics Gel-Nimbus", "Gel-Nimbus"], weight: 2 }),
        b("Nike", "nike.com", { aliases: ["Nike Pegasus"], weight: 2 }),
        b("New Balance", "newbalance.com", { weight: 1.7 }),
        b("Saucony", "saucony.com", { weight: 1.3 }),
        b("On", "on.com", { aliases: ["On Running", "On Cloudmonster"], weight: 1.2 }),
        b("Altra", "altrarunning.com", { aliases: ["Altra Lone Peak"], weight: 1.1 }),
        b("Salomon", "salomon.com", { aliases: ["Salomon Speedcross"], weight: 1.2 }),
        b("Adidas", "adidas.com", { aliases: ["adidas Adizero"], weight: 1.4 }),
        b("Puma", "puma.com", { countries: ["DE", "AT"], weight: 1.3 }),
        b("Olympikus", "olympikus.com.br", { countries: ["BR"], weight: 1.8 }),
        b("Mizuno", "mizuno.com", { countries: ["JP", "BR"], weight: 1.5 }),
      ],
    },
    {
      focus: ["espresso machine", "coffee maker", "air fryer", "blender"],
      brands: [
        b("Breville", "breville.com", { aliases: ["Sage"], weight: 2.2 }),
        b("De'Longhi", "delonghi.com", { aliases: ["DeLonghi"], weight: 2 }),
        b("Ninja", "ninjakitchen.com", { weight: 2 }),
        b("Philips", "philips.com", { aliases: ["Philips Airfryer"], weight: 1.6 }),
        b("Cosori", "cosori.com", { weight: 1.2 }),
        b("Vitamix", "vitamix.com", { weight: 1.3 }),
        b("Gaggia", "gaggia.com", { weight: 0.9 }),
        b("Jura", "jura.com", { countries: ["DE", "CH", "AT"], weight: 1.6 }),
        b("Krups", "krups.de", { countries: ["DE", "FR"], weight: 1.2 }),
        b("Tefal", "tefal.fr", { aliases: ["Tefal ActiFry"], countries: ["FR", "ES", "GB"], weight: 1.4 }),
        b("Mondial", "mondialline.com.br", { countries: ["BR"], weight: 1.5 }),
      ],
    },
    {
      focus: ["e-bike", "bike", "electric car"],
      brands: [
        b("Rad Power Bikes", "radpowerbikes.com", { aliases: ["Rad Power"], weight: 1.6, countries: ["US", "CA"] }),
        b("Specialized", "specialized.com", { aliases: ["Specialized Turbo Vado"], weight: 1.8 }),
        b("Trek", "trekbikes.com", { weight: 1.8 }),
        b("Giant", "giant-bicycles.com", { weight: 1.3 }),
        b("Tesla", "tesla.com", { aliases: ["Model Y", "Tesla Model Y"], weight: 1.4 }),
        b("Cube", "cube.eu", { countries: ["DE", "AT"], weight: 1.7 }),
        b("Riese & Müller", "r-m.de", { countries: ["DE", "NL", "AT", "CH"], weight: 1.5 }),
        b("VanMoof", "vanmoof.com", { countries: ["NL", "DE", "GB"], weight: 1.4 }),
        b("Decathlon", "decathlon.fr", { aliases: ["Rockrider"], countries: ["FR", "ES", "IT", "BR"], weight: 1.5 }),
      ],
    },
    {
      focus: [],
      brands: [
        b("Samsung", "samsung.com", { weight: 2 }),
        b("Apple", "apple.com", { weight: 2 }),
        b("Sony", "sony.com", { weight: 1.6 }),
        b("LG", "lg.com", { weight: 1.5 }),
        b("Bosch", "bosch-home.com", { weight: 1.4 }),
        b("Philips", "philips.com", { weight: 1.2 }),
        b("Anker", "anker.com", { weight: 1 }),
        b("Garmin", "garmin.com", { weight: 1 }),
        b("Miele", "miele.de", { countries: ["DE", "AT", "CH", "NL"], weight: 1.5 }),
        b("Multilaser", "multilaser.com.br", { countries: ["BR"], weight: 1.2 }),
      ],
    },
  ],
  education: [
    {
      focus: ["language", "spanish", "french", "japanese", "german", "vocabulary"],
      brands: [
        b("Duolingo", "duolingo.com", { weight: 3 }),
        b("Babbel", "babbel.com", { weight: 2.2 }),
        b("Busuu", "busuu.com", { weight: 1.3 }),
        b("Rosetta Stone", "rosettastone.com", { weight: 1.2 }),
        b("italki", "italki.com", { weight: 1.4 }),
        b("Anki", "apps.ankiweb.net", { weight: 1.2 }),
        b("Pimsleur", "pimsleur.com", { weight: 0.9 }),
      ],
    },
    {
      focus: [],
      brands: [
        b("Coursera", "coursera.org", { weight: 2.4 }),
        b("Khan Academy", "khanacademy.org", { weight: 2.2 }),
        b("edX", "edx.org", { weight: 1.6 }),
        b("Udemy", "udemy.com", { weight: 1.8 }),
        b("Skillshare", "skillshare.com", { weight: 1 }),
        b("Brilliant", "brilliant.org", { weight: 0.9 }),
        b("Simply Piano", "hellosimply.com", { aliases: ["Simply"], weight: 0.8 }),
        b("Studyflix", "studyflix.de", { countries: ["DE", "AT"], weight: 1.5 }),
        b("Descomplica", "descomplica.com.br", { countries: ["BR"], weight: 1.6 }),
        b("BYJU'S", "byjus.com", { aliases: ["Byjus"], countries: ["IN"], weight: 1.8 }),
      ],
    },
  ],
  general: [
    {
      focus: [],
      brands: [
        b("Wikipedia", "wikipedia.org", { weight: 2.5 }),
        b("Encyclopaedia Britannica", "britannica.com", { aliases: ["Britannica"], weight: 1.6 }),
        b("Khan Academy", "khanacademy.org", { weight: 1 }),
        b("National Geographic", "nationalgeographic.com", { weight: 1.1 }),
        b("Kurzgesagt", "kurzgesagt.org", { weight: 0.8 }),
      ],
    },
  ],
};

/** The host of a brand's site: its domain, with `www.` when the domain is a registered one. */
export function vendorHost(domain: string): string {
  return domain.split(".").length > 2 ? domain : `www.${domain}`;
}

/** The catalogues as a flat list, each brand once per topic area (for tests and tools). */
export function catalogueOf(domain: DomainId): Brand[] {
  return CATALOGUES[domain].flatMap((c) => c.brands);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether `name` occurs in `text` as a whole word, any case. */
function names(text: string, name: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, "iu").test(text);
}

/** The catalogue for a topic: the first of its area whose focus words occur in it, else the area's default. */
function catalogueFor(domain: DomainId, topic: string): Catalogue {
  const all = CATALOGUES[domain];
  return all.find((c) => c.focus.some((word) => find(word, topic) !== null)) ?? all.find((c) => c.focus.length === 0)!;
}

/**
 * For a prompt no topic keyword places ("pipedrive vs hubspot"): the topic area and focus of the
 * first catalogue one of whose brands it names; its focus word (or, for an area's default
 * catalogue, the brand's name) is what the answer is about. Null when it names none.
 */
export function brandTopic(topic: string): { domain: DomainId; focus: string } | null {
  for (const [domain, catalogues] of Object.entries(CATALOGUES) as [DomainId, Catalogue[]][]) {
    for (const catalogue of catalogues) {
      const brand = catalogue.brands.find((b) => [b.name, ...(b.aliases ?? [])].some((n) => names(topic, n)));
      if (brand) return { domain, focus: catalogue.focus[0] ?? brand.name };
    }
  }
  return null;
}

/** Brands of the topic area a prompt names itself (by name or alias), in catalogue order. */
export function brandsInPrompt(domain: DomainId, topic: string): Brand[] {
  const seen = new Set<string>();
  return CATALOGUES[domain]
    .flatMap((c) => c.brands)
    .filter((brand) => {
      if (seen.has(brand.name)) return false;
      const named = [brand.name, ...(brand.aliases ?? [])].some((n) => names(topic, n));
      if (named) seen.add(brand.name);
      return named;
    });
}

/** An engine's taste for a brand, 0.55 to 1.45: fixed per engine, so engines rank differently and consistently. */
function taste(engine: string, brand: Brand): number {
  return 0.55 + 0.9 * (hash32(`${engine}\u0000${brand.name}`) / 4294967296);
}

export interface BrandPick {
  /** Ranked: the first is named first. */
  listed: Brand[];
  /** A brand the answer says it found nothing about, or null. */
  absent: Brand | null;
}

/**
 * The brands one answer names, ranked: 3 to 6 drawn by weight (the brand's, times the engine's
 * taste, times 2.5 for a brand local to the searcher's country), brands local to other countries
 * left out; a brand the prompt names is in about 60% of answers, and now and then (about one
 * answer in seven when the prompt names one, one in ten otherwise) the answer says it found
 * nothing about a brand instead of naming it.
 */
export function pickBrands(domain: DomainId, topic: string, country: string | null, engine: string, rng: Rng): BrandPick {
  const catalogue = catalogueFor(domain, topic);
  const inPrompt = brandsInPrompt(domain, topic);
  const eligible = catalogue.brands.filter((brand) => !brand.countries || (country !== null && brand.countries.includes(country)));
  const weightOf = (brand: Brand) => (brand.weight ?? 1) * taste(engine, brand) * (brand.countries ? 2.5 : 1);

  let absent: Brand | null = null;
  const promptChance = rng.next();
  if (inPrompt.length > 0 && rng.chance(1 / 7)) absent = rng.pick(inPrompt);
  else if (inPrompt.length === 0 && rng.chance(0.1)) {
    const lesser = [...eligible].sort((a, b) => (a.weight ?? 1) - (b.weight ?? 1)).slice(0, 3);
    absent = lesser.length > 0 ? rng.pick(lesser) : null;
  }

  const wanted = rng.int(3, 6);
  // By name: the same brand can sit in two catalogues of a topic area as two objects.
  const pool = eligible.filter((brand) => brand.name !== absent?.name && !inPrompt.some((named) => named.name === brand.name));
  const listed: Brand[] = [];
  while (listed.length < wanted && pool.length > 0) {
    const total = pool.reduce((sum, brand) => sum + weightOf(brand), 0);
    let at = rng.next() * total;
    let i = 0;
    for (; i < pool.length - 1; i++) {
      at -= weightOf(pool[i]!);
      if (at <= 0) break;
    }
    listed.push(pool.splice(i, 1)[0]!);
  }
  // The prompt's own brands: named in some answers, not all, at a place of the engine's choosing.
  for (const brand of inPrompt) {
    if (brand === absent || promptChance >= 0.6) continue;
    listed.splice(rng.int(0, Math.min(2, listed.length)), 0, brand);
  }
  return { listed: listed.slice(0, 7), absent };
}

// What a list item says after the name; chosen per brand and run.
const BLURBS: Record<DomainId, string[]> = {
  business: ["easy to set up, with a usable free tier", "strong on integrations and automation", "popular with growing sales teams", "good value per seat", "praised for its reporting"],
  tech: ["widely used and well documented", "a strong free tier for learning", "popular with professional teams", "good for getting started quickly"],
  finance: ["low fees and a simple app", "strong for long-term investing", "often recommended for beginners", "competitive rates"],
  health: ["well rated by long-term users", "good free features", "popular for tracking habits", "backed by a large community"],
  travel: ["wide choice and flexible cancellation", "good for comparing prices", "often the cheapest in tests", "useful alerts for price drops"],
  food: ["reliable and well reviewed", "good value for home cooks", "a favourite of food writers", "durable and easy to clean"],
  products: ["the top pick in several reviews", "best value in its class", "praised for build quality", "a strong all-rounder", "comfortable for long use"],
  education: ["structured lessons and good feedback", "free to start", "popular with adult beginners", "strong on practice"],
  general: ["a reliable reference", "clear and well sourced", "good for a first overview"],
};

const PROSE: Array<(a: string, b: string) => string> = [
  (a, b) => `Many people start with ${a}, while ${b} tends to come up for more specific needs.`,
  (a, b) => `Reviewers often compare ${a} with ${b}, and the choice usually comes down to price and fit.`,
  (a, b) => `${a} gets the most mentions in recent write-ups, with ${b} a close second.`,
];

const ABSENCE: Array<(name: string) => string> = [
  (name) => `I couldn't find any information about ${name} in the sources I checked.`,
  (name) => `There is no reliable information on ${name} in recent reviews.`,
  (name) => `${name} does not appear to be covered by the sources I found.`,
];

/** The sentences that name the picked brands: a ranked list after its lead-in, prose, and an absence sentence. */
export function brandSentences(pick: BrandPick, domain: DomainId, country: string | null, rng: Rng): { lead: string; items: string[]; prose: string[] } {
  const where = country ? ` for searchers in ${countryName(country) ?? country}` : "";
  const lead = pick.listed.length > 0 ? `The options that come up most often${where}:` : "";
  const items = pick.listed.map((brand, i) => `${i + 1}. ${brand.name}: ${rng.pick(BLURBS[domain])}.`);
  const prose: string[] = [];
  if (pick.listed.length >= 2) {
    const [first, second] = rng.chance(0.5) ? [pick.listed[0]!, pick.listed[1]!] : [pick.listed[1]!, pick.listed[rng.int(2, pick.listed.length - 1) % pick.listed.length]!];
    // An alias now and then, as answers write it.
    const written = (brand: Brand) => (brand.aliases && rng.chance(0.3) ? rng.pick(brand.aliases) : brand.name);
    if (first !== second) prose.push(rng.pick(PROSE)(written(first), written(second)));
  }
  if (pick.absent) prose.push(rng.pick(ABSENCE)(pick.absent.name));
  return { lead, items, prose };
}

/** Every brand of every catalogue, each name once (what the simulated judge knows as brands). */
export function everyBrand(): Brand[] {
  const seen = new Set<string>();
  const out: Brand[] = [];
  for (const catalogues of Object.values(CATALOGUES) as Catalogue[][]) {
    for (const brand of catalogues.flatMap((c) => c.brands)) {
      if (seen.has(brand.name.toLowerCase())) continue;
      seen.add(brand.name.toLowerCase());
      out.push(brand);
    }
  }
  return out;
}
